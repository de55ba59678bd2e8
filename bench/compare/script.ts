/**
 * The comparison's workload, the same for every contender: a run of `steps` tool steps, in
 * each of which the model asks for two tool calls (`add`, `echo`), then one more model call
 * that answers with `FINAL_TEXT`. Every fake model reads which step it is at from the length
 * of the conversation it is sent (so concurrent runs need no shared cursor) and counts its
 * calls here; the tools count their executions; the hooks count their firings. After a
 * measurement `verifyCounts` checks every counter against what the runs must have done, so
 * a framework that skipped a model call, a tool or a hook fails the bench loudly.
 */

// The texts of bench/shared/workload.ts, not imported from there: that module loads hookwise's
// dist/, which the other frameworks' processes have no use for.
export const INSTRUCTIONS = "You are a calculator. Use the tools.";
export const INPUT = "Add some numbers and echo the results.";

/** A check of the bench failed (wrong counts, a run that went off script, a bad case name): its message says all. */
export class BenchCheckError extends Error {
  override name = "BenchCheckError";
}

export const FINAL_TEXT = "All sums are computed and every text is echoed.";

export interface ScriptedCall {
  id: string;
  name: "add" | "echo";
  args: { a: number; b: number } | { text: string };
  /** `args` as the JSON text a provider sends. */
  input: string;
}

/** What every counter must read per run. */
export interface Expected {
  modelCalls: number;
  toolCalls: number;
  /** Firings per seam: model seams fire per model call, tool seams per tool call. */
  modelSeam: number;
  toolSeam: number;
}

export interface Counters {
  modelCalls: number;
  add: number;
  echo: number;
  beforeModel: number;
  afterModel: number;
  beforeTool: number;
  afterTool: number;
}

/** This process's counters (one case per process). */
export const counters: Counters = {
  modelCalls: 0,
  add: 0,
  echo: 0,
  beforeModel: 0,
  afterModel: 0,
  beforeTool: 0,
  afterTool: 0,
};

export function add({ a, b }: { a: number; b: number }): number {
  counters.add++;
  return a + b;
}

export function echo({ text }: { text: string }): { text: string } {
  counters.echo++;
  return { text };
}

/** The two calls the model asks for at `step` (0-based); ids unique within a run. */
export function callsAt(step: number): [ScriptedCall, ScriptedCall] {
  const sum = { a: step, b: 2 };
  const text = { text: `step ${step}` };
  return [
    { id: `call_${step}_0`, name: "add", args: sum, input: JSON.stringify(sum) },
    { id: `call_${step}_1`, name: "echo", args: text, input: JSON.stringify(text) },
  ];
}

/**
 * Parks runs at one model call (the heap measurement): while armed, every run that reaches
 * model call `step` waits there until `release()`.
 */
export class Gate {
  #armed = false;
  #arrived = 0;
  #waiting: Array<() => void> = [];
  #whenAll: { count: number; resolve: () => void } | undefined;

  constructor(readonly step: number) {}

  arm(): void {
    this.#armed = true;
    this.#arrived = 0;
  }

  /** Resolves once `count` runs wait at the gate. */
  arrivals(count: number): Promise<void> {
    if (this.#arrived >= count) return Promise.resolve();
    return new Promise((resolve) => {
      this.#whenAll = { count, resolve };
    });
  }

  enter(step: number): Promise<void> | undefined {
    if (!this.#armed || step !== this.step) return undefined;
    this.#arrived++;
    const waiting = new Promise<void>((resolve) => this.#waiting.push(resolve));
    if (this.#whenAll && this.#arrived >= this.#whenAll.count) this.#whenAll.resolve();
    return waiting;
  }

  release(): void {
    this.#armed = false;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

/**
 * The script the fake models answer from: the calls of every step computed up front, the
 * step checked, the call counted, and the gate (when there is one) entered.
 */
export class Script {
  readonly steps: number;
  readonly gate: Gate | undefined;
  /** Runs of this script that ended with the final text (counted by the bench, not the framework). */
  finished = 0;
  readonly #calls: Array<[ScriptedCall, ScriptedCall]>;

  constructor(steps: number, gate?: Gate) {
    this.steps = steps;
    this.gate = gate;
    this.#calls = Array.from({ length: steps }, (_, step) => callsAt(step));
  }

  /**
   * The answer at `step`: two tool calls, or `undefined` for the final text. Throws when the
   * conversation length a framework sent does not map to a step of the script, so a
   * framework that dropped or duplicated messages fails the run.
   */
  answer(step: number, framework: string): [ScriptedCall, ScriptedCall] | undefined {
    if (!Number.isInteger(step) || step < 0 || step > this.steps)
      throw new BenchCheckError(
        `${framework}: the model was sent a conversation that is no step of the script (${step})`,
      );
    counters.modelCalls++;
    return step < this.steps ? this.#calls[step] : undefined;
  }

  /** A promise while the gate holds this step; undefined otherwise (the fast path). */
  enter(step: number): Promise<void> | undefined {
    return this.gate?.enter(step);
  }
}

export function expectedPerRun(steps: number, hooksPerSeam: number): Expected {
  const modelCalls = steps + 1;
  const toolCalls = steps * 2;
  return { modelCalls, toolCalls, modelSeam: modelCalls * hooksPerSeam, toolSeam: toolCalls * hooksPerSeam };
}

/**
 * Throws naming every counter that is off, given the scripts whose runs this process made
 * (the bench then fails in that case's process).
 */
export function verifyCounts(label: string, scripts: readonly Script[], hooksPerSeam: number): void {
  const want = { modelCalls: 0, add: 0, echo: 0, beforeModel: 0, afterModel: 0, beforeTool: 0, afterTool: 0 };
  for (const script of scripts) {
    const expected = expectedPerRun(script.steps, hooksPerSeam);
    const runs = script.finished;
    want.modelCalls += expected.modelCalls * runs;
    want.add += script.steps * runs;
    want.echo += script.steps * runs;
    want.beforeModel += expected.modelSeam * runs;
    want.afterModel += expected.modelSeam * runs;
    want.beforeTool += expected.toolSeam * runs;
    want.afterTool += expected.toolSeam * runs;
  }
  const runs = scripts.reduce((sum, script) => sum + script.finished, 0);
  const wrong = (Object.keys(want) as (keyof Counters)[]).filter((name) => counters[name] !== want[name]);
  if (runs === 0 || wrong.length > 0)
    throw new BenchCheckError(
      `${label}: call counts are wrong after ${runs} runs: ` +
        (wrong.map((name) => `${name} ${counters[name]} (expected ${want[name]})`).join(", ") ||
          "no run finished"),
    );
}
