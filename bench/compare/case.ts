/**
 * One case of the comparison, named `kind:contender:steps:hooksPerSeam:mode`
 * (e.g. `time:langchain:10:50:async`), and what a process measuring it does:
 * - `time`: one run after another; µs per run.
 * - `concurrent`: 100 runs started together and awaited; µs per run (the batch ÷ 100).
 * - `heap`: N runs parked at the same model call, heap used per run after forced GC.
 * A case measures for about as long as its budget allows, whatever one run costs (from
 * microseconds for the plain loop to many milliseconds for LangChain with 50 middleware),
 * then checks every call count (script.ts) and fails its process when one is off.
 */
import { forkedCase } from "../shared/forks.js";
import { CONTENDER_NAMES, CONTENDERS, type Contender, type ContenderName } from "./contender.js";
import { counters, FINAL_TEXT, Gate, Script, verifyCounts } from "./script.js";
import { type HookMode, seamHooks } from "./seam-hooks.js";

export type CaseKind = "time" | "concurrent" | "heap";

export interface CaseSpec {
  kind: CaseKind;
  contender: ContenderName;
  steps: number;
  perSeam: number;
  mode: HookMode;
}

export const CONCURRENT_RUNS = 100;
/** Where parked runs wait: the model call after this many tool steps. */
export const PARK_AT_STEP = 5;

export function caseName(spec: CaseSpec): string {
  return `${spec.kind}:${spec.contender}:${spec.steps}:${spec.perSeam}:${spec.mode}`;
}

export function parseCase(name: string): CaseSpec {
  const [kind, contender, steps, perSeam, mode] = name.split(":");
  if (
    (kind !== "time" && kind !== "concurrent" && kind !== "heap") ||
    !CONTENDER_NAMES.includes(contender as ContenderName) ||
    (mode !== "sync" && mode !== "async")
  )
    throw new Error(`bench/compare: "${name}" is no case (kind:contender:steps:hooksPerSeam:sync|async)`);
  return {
    kind,
    contender: contender as ContenderName,
    steps: Number(steps),
    perSeam: Number(perSeam),
    mode,
  };
}

export interface Budget {
  /** Warm-up with single runs (JIT, the frameworks' lazy set-up), in ms. */
  warmupMs: number;
  /** Measuring, in ms: `rounds` batches (fewer, down to `minRounds`, when one call is slow). */
  measureMs: number;
  rounds: number;
  minRounds: number;
  /** Runs parked at once for `heap` (fewer, down to `minParked`, when runs are slow; see `parkedRuns`). */
  parked: number;
  minParked: number;
  /** About how long the parked runs may take to reach the gate, in ms. */
  parkMs: number;
  /** What timed batches are measured by (bench/shared/measure.ts). */
  clock: "wall" | "cpu";
}

export interface HeapSample {
  bytesPerRun: number;
  parked: number;
}

export const HEAP_MARK = "@@heap ";

/** The contender's run, checked: the final text must be the script's. */
function checkedRun(contender: Contender, label: string): () => Promise<void> {
  return async () => {
    const text = await contender.run();
    if (text !== FINAL_TEXT) throw new Error(`${label}: the run ended with ${JSON.stringify(text)}`);
    counters.runs++;
  };
}

/** Milliseconds on the budget's clock (CPU time is what a busy machine leaves alone). */
function now(clock: Budget["clock"]): number {
  if (clock === "wall") return performance.now();
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Calls `fn` for `ms` on the clock (at least `atLeast` times); returns ms per call. */
async function warm(fn: () => Promise<unknown>, ms: number, atLeast: number, clock: Budget["clock"]) {
  const started = now(clock);
  let calls = 0;
  while (calls < atLeast || now(clock) - started < ms) {
    await fn();
    calls++;
  }
  return (now(clock) - started) / calls;
}

/** As many parked runs as fit the budget (a run is parked about half-way through). */
function parkedRuns(runMs: number, budget: Budget): number {
  const fit = Math.floor(budget.parkMs / (runMs / 2));
  return Math.max(budget.minParked, Math.min(budget.parked, fit));
}

async function measureHeap(spec: CaseSpec, budget: Budget, label: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("bench/compare: heap cases need node --expose-gc");
  const gate = new Gate(PARK_AT_STEP);
  const script = new Script(spec.steps, gate);
  const contender = await (await CONTENDERS[spec.contender].load()).create({
    script,
    hooks: seamHooks(spec.perSeam, spec.mode),
  });
  const run = checkedRun(contender, label);
  contender.setup?.();
  const parked = parkedRuns(await warm(run, budget.warmupMs, 2, budget.clock), budget);
  contender.setup?.();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  gate.arm();
  const runs = Array.from({ length: parked }, run);
  await gate.arrivals(parked);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  gate.release();
  await Promise.all(runs);
  verifyCounts(label, spec.steps, spec.perSeam);
  const sample: HeapSample = { bytesPerRun: (after - before) / parked, parked };
  console.log(`${HEAP_MARK}${JSON.stringify(sample)}`);
}

/** In a fork: measures the case named on the command line, prints, returns true. */
export async function runCase(name: string, budget: Budget): Promise<void> {
  const spec = parseCase(name);
  const label = `${CONTENDERS[spec.contender].heading.join(" ")} (${name})`;
  if (spec.kind === "heap") return measureHeap(spec, budget, label);
  const script = new Script(spec.steps);
  const contender = await (await CONTENDERS[spec.contender].load()).create({
    script,
    hooks: seamHooks(spec.perSeam, spec.mode),
  });
  const single = checkedRun(contender, label);
  const fn =
    spec.kind === "time"
      ? single
      : () => Promise.all(Array.from({ length: CONCURRENT_RUNS }, single)).then(() => undefined);
  const setup = contender.setup?.bind(contender);
  setup?.();
  let perCallMs = await warm(single, budget.warmupMs, 2, budget.clock);
  // A concurrent batch is warmed (and timed) once more on its own.
  if (spec.kind === "concurrent") perCallMs = await warm(fn, 0, 1, budget.clock);
  // A concurrent batch is 100 runs: three of them already make a median for the slow frameworks.
  const minRounds = spec.kind === "concurrent" ? Math.min(3, budget.minRounds) : budget.minRounds;
  const rounds = Math.max(minRounds, Math.min(budget.rounds, Math.floor(budget.measureMs / perCallMs)));
  const batch = Math.max(1, Math.round(budget.measureMs / rounds / perCallMs));
  await forkedCase({ [name]: { run: fn, setup } }, { warmup: 0, rounds, batch, clock: budget.clock });
  verifyCounts(label, spec.steps, spec.perSeam);
}
