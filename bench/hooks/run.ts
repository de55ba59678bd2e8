/**
 * bench/hooks: the hook engine's cost.
 *  (a) dispatch cost of one `tool_call` event (select → transforms/decides → inspects, as
 *      the loop does it) with 0 / 10 / 100 / 1,000 registered `tool_call` hooks of which
 *      none / one match. Target: 1,000 unmatched hooks cost about the same as none
 *      (hooks indexed by event, patterns precompiled, selections cached).
 *  (b) the loop's cost per step with 10 no-op hooks on every event vs none, as a ratio to
 *      a bare loop that calls 10 no-op functions at the same seams. Target: within 3×.
 *
 *   npm run build && npx tsx bench/hooks/run.ts   (measures dist/, what ships)
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type {
  AnyEventPayload,
  AnyHook,
  EventName,
  HookContext,
  HookLogger,
  HookRunner as HookRunnerType,
} from "../../src/index.js";
import { forkedCase, measureForked } from "../shared/forks.js";
import { hookwise } from "../shared/hookwise.js";
import { format, machine, measureAll, type Timing, verdict } from "../shared/measure.js";
import {
  bareLoop,
  drain,
  INPUT,
  INSTRUCTIONS,
  type ReplayModel,
  RoundStore,
  replayModel,
  type Seam,
  toolSteps,
  tools,
} from "../shared/workload.js";

const { createAgent, defineHook, EVENT_KINDS, EVENT_NAMES, HookRegistry, HookRunner, Scratchpad } = hookwise;
type HookRunner = HookRunnerType;

const silent: HookLogger = { debug() {}, info() {}, warn() {}, error() {} };
const STEPS = 10;
const HOOKS_PER_EVENT = 10;
/** Processes per case (bench/shared/forks.ts). */
const FORKS = 5;

// ---------------------------------------------------------------------------------------
// (a) dispatch

function toolCallHooks(count: number, matching: number): AnyHook[] {
  return Array.from({ length: count }, (_, index) =>
    defineHook({
      name: `hook_${index}`,
      on: "tool_call",
      kind: "transform",
      // The matching hook sits in the middle of the list; the others name other tools.
      match:
        index === Math.floor(count / 2) && matching > 0 ? "add" : [`other_${index}`, `toolset_${index}.*`],
      handler: () => undefined,
    }),
  );
}

function context(): HookContext {
  const session = new Scratchpad();
  const run = new Scratchpad(session);
  const step = new Scratchpad(run);
  return {
    sessionId: "bench",
    runId: "bench",
    step: 0,
    attempt: 1,
    agentName: "bench",
    agentPath: ["bench"],
    isStreaming: false,
    signal: new AbortController().signal,
    scratch: { session, run, step, operation: new Scratchpad(step) },
    log: silent,
    input: INPUT,
    messages: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    turn: 0,
  } as HookContext;
}

function toolCallEvent(toolName: string): AnyEventPayload {
  return {
    type: "tool_call",
    agentPath: ["bench"],
    toolName,
    qualifiedName: toolName,
    toolCallId: "call_1",
    args: { a: 1, b: 2 },
  };
}

/** One dispatch exactly as the loop does it for a tool call: select, blocking, inspect. */
async function dispatch(runner: HookRunner, event: AnyEventPayload, hookContext: HookContext): Promise<void> {
  const selection = runner.select(event);
  await runner.blocking(event, hookContext, selection);
  runner.inspect(event, hookContext, selection);
}

function runnerWith(hooks: AnyHook[], onTrace: () => void = () => {}): HookRunner {
  const registry = new HookRegistry(hooks);
  return new HookRunner({ registries: [{ registry, depth: 0 }], trace: onTrace, log: silent });
}

async function dispatchBench(): Promise<number> {
  console.log("(a) dispatch of one tool_call event (select → blocking → inspect), ns per dispatch");
  const hookContext = context();
  const event = toolCallEvent("add");
  const counts = [0, 10, 100, 1000] as const;
  const traced = new Map<string, number>();
  const cases: Record<string, () => Promise<void>> = {};
  for (const count of counts) {
    for (const matching of count === 0 ? [0] : [0, 1]) {
      const key = `${count}/${matching}`;
      traced.set(key, 0);
      const runner = runnerWith(toolCallHooks(count, matching), () => traced.set(key, traced.get(key)! + 1));
      cases[key] = () => dispatch(runner, event, hookContext);
    }
  }
  const timings = await measureAll(cases, { warmup: 20_000, rounds: 31, batch: 10_000 });
  for (const [key, fired] of traced) {
    if (key.endsWith("/1") && fired === 0) throw new Error(`${key}: the matching hook never fired`);
    if (key.endsWith("/0") && fired !== 0) throw new Error(`${key}: an unmatched hook fired`);
  }
  const ns = (key: string) => timings[key]!.medianUs * 1000;
  const none = ns("0/0");
  console.log("    hooks registered   none match   ÷ 0 hooks   one matches");
  for (const count of counts) {
    const unmatched = ns(`${count}/0`);
    const one = count === 0 ? "        -" : format(ns(`${count}/1`), 0);
    console.log(
      `    ${String(count).padStart(16)} ${format(unmatched, 0, 12)} ${format(unmatched / none, 2, 10)}× ${one.padStart(13)}`,
    );
  }

  // The first dispatch for a tool name not seen before computes the selection (every
  // precompiled matcher runs once); later ones hit the cache. Shown for completeness.
  const runner = runnerWith(toolCallHooks(1000, 0));
  const fresh = Array.from({ length: 3000 }, (_, index) => toolCallEvent(`fresh_tool_${index}`));
  let next = 0;
  const cold = await measureAll(
    { cold: () => dispatch(runner, fresh[next++]!, hookContext) },
    { warmup: 0, rounds: 5, batch: 200 },
  );
  console.log(
    `    first dispatch for a tool name never seen, 1,000 hooks (selection cache miss): ${cold.cold.medianUs.toFixed(0)} µs`,
  );
  const ratio = ns("1000/0") / none;
  console.log(
    `    target "1,000 unmatched ≈ none": ${ratio.toFixed(2)}× (${verdict(ratio <= 1.5)}; criterion ≤ 1.5×)\n`,
  );
  return ratio;
}

// ---------------------------------------------------------------------------------------
// (b) the loop with 10 no-op hooks on every event

/** Ten no-op hooks on every event of the catalogue: transform where the event takes it, else inspect. */
/**
 * While `counting.on`, each hook counts its event (the check run); afterwards it only
 * stores its argument, exactly what the bare loop's no-op functions do, so the measured
 * difference is hookwise's dispatch and not the bench's bookkeeping.
 */
function noOpHooksOnEveryEvent(): {
  hooks: AnyHook[];
  calls: Map<EventName, number>;
  counting: { on: boolean };
} {
  const calls = new Map<EventName, number>();
  const counting = { on: true };
  let sink: unknown;
  const hooks: AnyHook[] = [];
  for (const event of EVENT_NAMES) {
    const kind = EVENT_KINDS[event].includes("transform") ? "transform" : "inspect";
    for (let index = 0; index < HOOKS_PER_EVENT; index++) {
      hooks.push({
        name: `${event}_${index}`,
        on: event,
        kind,
        handler: (payload: unknown) => {
          if (counting.on) calls.set(event, (calls.get(event) ?? 0) + 1);
          else sink = payload;
        },
      } as AnyHook);
    }
  }
  void sink;
  return { hooks, calls, counting };
}

/** The bare loop's seams: ten no-op functions each. */
function noOpSeam(): Seam {
  let sink: unknown;
  const functions = Array.from({ length: HOOKS_PER_EVENT }, () => (event: unknown) => {
    sink = event;
  });
  return (event) => {
    for (const fn of functions) fn(event);
    void sink;
  };
}

function makeAgent(model: ReplayModel, hooks: AnyHook[], store?: RoundStore) {
  return createAgent({
    name: "bench",
    model,
    instructions: INSTRUCTIONS,
    tools,
    hooks,
    maxSteps: STEPS,
    logger: silent,
    store,
  });
}

// One fork per case (bench/shared/forks.ts): run() and stream(), with and without hooks,
// and the bare loops each measured in processes of their own.
const loopModel = replayModel(toolSteps(STEPS));
const noOps = noOpHooksOnEveryEvent();
// One agent per fork; its store is emptied between rounds, so nothing it keeps piles up.
const roundStore = new RoundStore();
const plainAgent = makeAgent(loopModel, [], roundStore);
const hookedAgent = makeAgent(loopModel, noOps.hooks, roundStore);
const seam = noOpSeam();
/** Resets the replayed script, then runs `fn` (one timed call of a case). */
function replay<T>(fn: () => T): () => T {
  return () => {
    loopModel.reset();
    return fn();
  };
}
const freshPlain = () => roundStore.reset();
const freshHooked = freshPlain;
const loopCases = {
  bare: { run: replay(() => bareLoop(loopModel, STEPS)) },
  bareSeams: { run: replay(() => bareLoop(loopModel, STEPS, seam)) },
  run: { setup: freshPlain, run: replay(() => plainAgent.run(INPUT)) },
  runHooks: { setup: freshHooked, run: replay(() => hookedAgent.run(INPUT)) },
  stream: { setup: freshPlain, run: replay(() => drain(plainAgent.stream(INPUT))) },
  streamHooks: { setup: freshHooked, run: replay(() => drain(hookedAgent.stream(INPUT))) },
};
type LoopCase = keyof typeof loopCases;

async function loopBench(): Promise<number> {
  console.log(
    `(b) loop, ${STEPS} steps × 2 tool calls, scripted model; µs per run (per step); each case in its own processes`,
  );
  // Check once which events the hooks really fire on (the seams the bare loop mirrors), on both surfaces.
  const { calls, counting } = noOps;
  loopModel.reset();
  const checked = await makeAgent(loopModel, noOps.hooks).run(INPUT);
  const invocations = [...calls.values()].reduce((sum, count) => sum + count, 0);
  const fired = [...calls].map(([event, count]) => `${event}×${count / HOOKS_PER_EVENT}`).join(", ");
  loopModel.reset();
  const streamed = await drain(makeAgent(loopModel, noOps.hooks).stream(INPUT));
  if (checked.outcome !== "max_steps" || streamed.outcome !== "max_steps")
    throw new Error(`unexpected outcome ${checked.outcome} / ${streamed.outcome}`);
  if (checked.events.length !== invocations || streamed.events.length !== invocations)
    throw new Error("every hook that ran should leave one trace entry, on both surfaces");
  counting.on = false;

  const names = Object.keys(loopCases) as LoopCase[];
  const t = measureForked(fileURLToPath(import.meta.url), names, FORKS);
  const row = (label: string, timing: Timing, extra = "") =>
    console.log(
      `    ${label.padEnd(46)} ${format(timing.medianUs)} (${format(timing.meanUs, 1, 6)} ${format(timing.minUs, 1, 6)}) ${format(timing.medianUs / STEPS, 2)}   ${extra}`,
    );
  const ratio = t.runHooks.medianUs / t.bareSeams.medianUs;
  console.log(`    ${"".padEnd(46)} median µs/run (mean fastest)  µs/step   (ratios of medians)`);
  row("bare loop", t.bare);
  row(`bare loop + ${HOOKS_PER_EVENT} no-op functions at each seam`, t.bareSeams);
  row("agent.run(), no hooks", t.run, `${(t.run.medianUs / t.bare.medianUs).toFixed(2)}× bare`);
  row(
    `agent.run(), ${HOOKS_PER_EVENT} no-op hooks on every event`,
    t.runHooks,
    `${ratio.toFixed(2)}× bare + no-ops (target ≤ 3×: ${verdict(ratio <= 3)}; means: ${(t.runHooks.meanUs / t.bareSeams.meanUs).toFixed(2)}×); ${(t.runHooks.medianUs / t.run.medianUs).toFixed(2)}× no hooks`,
  );
  row("agent.stream(), no hooks", t.stream, `${(t.stream.medianUs / t.bare.medianUs).toFixed(2)}× bare`);
  row(
    `agent.stream(), ${HOOKS_PER_EVENT} no-op hooks on every event`,
    t.streamHooks,
    `${(t.streamHooks.medianUs / t.stream.medianUs).toFixed(2)}× no hooks (each firing is also a live \`hook\` stream event)`,
  );
  const perHookNs = ((t.runHooks.medianUs - t.run.medianUs) * 1000) / invocations;
  const perFunctionNs = ((t.bareSeams.medianUs - t.bare.medianUs) * 1000) / invocations;
  console.log(
    `    per hook invocation (run()): ${perHookNs.toFixed(0)} ns, its event's payload, context and trace entry included; per bare no-op call: ${perFunctionNs.toFixed(1)} ns`,
  );
  console.log(`    hooks fired per run: ${fired}`);
  return ratio;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `bench/hooks — ${machine()}; load average ${loadavg()[0]!.toFixed(2)}; measuring dist/; cases interleaved, median batch\n`,
  );
  await dispatchBench();
  await loopBench();
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// In a fork: counting is off (the hooks only store their argument, as the bare no-ops do).
noOps.counting.on = !process.argv.some((arg) => arg.startsWith("--case="));
if (!(await forkedCase(loopCases, { warmup: 3000, rounds: 61, batch: 50 }))) await main();
