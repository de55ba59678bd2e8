/**
 * The live trace of `hookwise run` and `hookwise resume`: each line where it happens in the
 * run, in order.
 *
 * Three things arrive out of that order and are put back here:
 * - A hook's log line (`✎`, a notification) is printed by the hook while it fires, and the
 *   run's events reach the trace a little later: the line waits for its hook's own `⚑` line
 *   and is printed just before it.
 * - A step's tool calls surface (`▶ run`, `◀ result`) once the whole batch settled, after
 *   the `tool_result` hooks fired: those hooks' lines wait for the results they are about.
 * - Inspect hooks never hold the run up, so one may finish once the next step has begun:
 *   the next step's header waits for that step's first line, and an inspection of the
 *   previous step's tools that finishes later still is marked with its step.
 */
import type { HookTraceEntry } from "../../hooks/trace.js";
import type { AgentEvent } from "../../loop/run-result.js";
import { MaskedDeltas } from "../../models/masked-deltas.js";
import { maskSecrets, registeredSecrets } from "../../secrets/secret-registry.js";
import { type EventDrawer, eventDrawer, type Printer } from "./render-event.js";

type StepStart = Extract<AgentEvent, { type: "step-start" }>;

/** Events whose hooks fire while a step's tool batch runs. */
const TOOL_EVENTS: ReadonlySet<string> = new Set([
  "tool_call",
  "tool_result",
  "tool_error",
  "invalid_tool_call",
  "approval_request",
  "agent_spawn",
  "agent_complete",
]);

/** Events that fire after a tool ran: their lines follow the batch's results. */
const AFTER_TOOL: ReadonlySet<string> = new Set(["tool_result", "tool_error"]);

/** Events a step fires before its model answers: their inspections belong to the new step. */
const STEP_OPENING: ReadonlySet<string> = new Set(["step_start", "model_request", "pre_compact"]);

export class LiveTrace {
  readonly #draw: EventDrawer;
  /** Log lines of a hook, waiting for its `⚑` line (first in, first out). */
  readonly #logs = new Map<string, string[]>();
  /** A step whose header waits for the step's first line. */
  #pendingStep: StepStart | undefined;
  /** The step whose header was printed last (-1: none yet). */
  #step = -1;
  /** Whether the current step's model called tools, and whether their results surfaced. */
  #batch: "none" | "running" | "surfaced" = "none";
  /** Lines of hooks that fired after a tool ran, waiting for the batch's results. */
  #after: (() => void)[] = [];
  /** A resumed run: its first step goes on with the suspended step's tool batch. */
  #resumed = false;
  /** A model's key streamed in pieces is masked whole, even with hook lines between them. */
  readonly #deltas = new MaskedDeltas<AgentEvent>(maskSecrets, registeredSecrets);

  constructor(out: Printer, options: { color?: boolean } = {}) {
    this.#draw = eventDrawer(out, options);
  }

  /** A line a hook printed (`hook` names it) or, without `hook`, any other line: printed now. */
  log(text: string, hook?: string): void {
    if (hook === undefined) {
      this.#openStep();
      this.#draw.line(text);
      return;
    }
    const waiting = this.#logs.get(hook);
    if (waiting) waiting.push(text);
    else this.#logs.set(hook, [text]);
  }

  event(streamed: AgentEvent): void {
    for (const event of this.#deltas.take(streamed)) this.#event(event);
  }

  #event(event: AgentEvent): void {
    switch (event.type) {
      case "step-start":
        this.#flushAfter();
        if (this.#pendingStep) this.#openStep();
        this.#pendingStep = event;
        this.#batch = this.#resumed ? "running" : "none";
        this.#resumed = false;
        return;
      case "hook":
        // Each firing of the dispatch is a line of its own, placed as it would be alone.
        for (const entry of event.firings) this.#hook(entry);
        return;
      case "tool-call":
        this.#openStep();
        this.#batch = "running";
        this.#draw.event(event);
        return;
      case "tool-execution-start":
      case "tool-result":
        this.#openStep();
        this.#batch = "surfaced";
        this.#draw.event(event);
        return;
      case "step-finish":
        this.#flushAfter();
        this.#draw.event(event);
        return;
      case "run-finish":
        this.#flushAfter();
        this.#openStep();
        this.flush();
        this.#draw.event(event);
        return;
      case "run-start":
        this.#resumed = event.resumed === true;
        this.#draw.event(event);
        return;
      default:
        this.#openStep();
        this.#flushAfter();
        this.#draw.event(event);
    }
  }

  /** Prints every line still waiting (a run that ended, or threw, before their hooks' lines came). */
  flush(): void {
    this.#flushAfter();
    for (const lines of this.#logs.values()) for (const text of lines) this.#draw.line(text);
    this.#logs.clear();
  }

  #hook(event: HookTraceEntry): void {
    const log = this.#logs.get(event.hook)?.shift();
    const draw = (note?: string) => {
      if (log !== undefined) this.#draw.line(log);
      this.#draw.firing(event, note);
    };
    const inspect = event.kind === "inspect";
    // An inspection that finished after its step ended, before the next step showed anything.
    if (this.#pendingStep && this.#batch === "none" && inspect && !STEP_OPENING.has(event.event)) {
      draw();
      return;
    }
    // After a tool ran: after the results, which the batch surfaces once it settled.
    if (this.#batch === "running" && AFTER_TOOL.has(event.event)) {
      this.#after.push(() => draw());
      return;
    }
    this.#openStep();
    // A tool inspection in a step whose model has not called tools: the previous step's.
    if (inspect && this.#batch === "none" && this.#step > 0 && TOOL_EVENTS.has(event.event)) {
      draw(`(step ${this.#step})`);
      return;
    }
    // While the batch runs, the lines of its tool_call hooks come as they happen.
    if (this.#batch !== "running") this.#flushAfter();
    draw();
  }

  /** Prints the waiting step header, if any. */
  #openStep(): void {
    const step = this.#pendingStep;
    if (!step) return;
    this.#pendingStep = undefined;
    this.#step = step.step;
    this.#draw.event(step);
  }

  #flushAfter(): void {
    if (this.#after.length === 0) return;
    const after = this.#after;
    this.#after = [];
    for (const draw of after) draw();
  }
}
