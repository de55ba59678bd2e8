/**
 * One case of the comparison, named `kind:contender:steps:hooksPerSeam:mode`
 * (e.g. `time:langchain:10:50:async`), and what a process measuring it does:
 * - `time`: one run after another; µs per run (bench/shared/forks.ts reads the result).
 * - `steps`: runs of `steps` steps against 10-step runs, timed in turns; µs per step of each.
 * - `concurrent`: 100 runs started together and awaited, against 100 runs one after the
 *   other, timed in turns; µs per run of each.
 * - `heap`: runs parked at the same model call; heap used per run after forced GC.
 * - `versus`: the contender against its `reference` (contender-list.ts), timed in turns;
 *   µs per run of each (a store against the in-memory run, recorded against unrecorded).
 * Cases that compare two things time both in turns in one process, so a busy moment of the
 * machine hits both alike and their ratio holds. A case measures for about as long as its
 * budget allows, whatever one run costs (from microseconds for the plain loop to a second
 * for LangChain with 50 middleware), then checks every call count (script.ts) and fails its
 * process when one is off.
 */
import { forkedCase } from "../shared/forks.js";
import { measureAll, type Timing } from "../shared/measure.js";
import type { Contender } from "./contender.js";
import { ANY_CONTENDER_NAMES, ANY_CONTENDERS, type AnyContenderName } from "./contender-list.js";
import { report } from "./fork-json.js";
import { BenchCheckError, FINAL_TEXT, Gate, Script, verifyCounts } from "./script.js";
import { type HookMode, seamHooks } from "./seam-hooks.js";

const KINDS = ["time", "steps", "concurrent", "heap", "versus"] as const;
export type CaseKind = (typeof KINDS)[number];

export interface CaseSpec {
  kind: CaseKind;
  contender: AnyContenderName;
  steps: number;
  perSeam: number;
  mode: HookMode;
}

export const CONCURRENT_RUNS = 100;
/** The short runs `steps` cases compare with. */
export const SHORT_STEPS = 10;
/** Where parked runs wait: the model call after this many tool steps. */
export const PARK_AT_STEP = 5;

export function caseName(spec: CaseSpec): string {
  return `${spec.kind}:${spec.contender}:${spec.steps}:${spec.perSeam}:${spec.mode}`;
}

export function parseCase(name: string): CaseSpec {
  const [kind, contender, steps, perSeam, mode, ...rest] = name.split(":");
  const spec = { kind, contender, steps: Number(steps), perSeam: Number(perSeam), mode };
  if (
    rest.length > 0 ||
    !KINDS.includes(kind as CaseKind) ||
    !ANY_CONTENDER_NAMES.includes(contender as AnyContenderName) ||
    !(Number.isInteger(spec.steps) && spec.steps > PARK_AT_STEP) ||
    !(Number.isInteger(spec.perSeam) && spec.perSeam >= 0) ||
    (mode !== "sync" && mode !== "async")
  )
    throw new BenchCheckError(
      `bench/compare: "${name}" is no case; expected kind:contender:steps:hooksPerSeam:mode with kind ` +
        `one of ${KINDS.join(", ")}, contender one of ${ANY_CONTENDER_NAMES.join(", ")}, steps an integer ` +
        `above ${PARK_AT_STEP}, hooksPerSeam an integer ≥ 0, mode sync or async ` +
        "(e.g. time:langchain:10:50:async)",
    );
  return spec as CaseSpec;
}

export interface Budget {
  /** Warm-up with single runs (JIT, the frameworks' lazy set-up), in ms. */
  warmupMs: number;
  /** Measuring, in ms: `rounds` batches (fewer, down to `minRounds`, when one call is slow). */
  measureMs: number;
  rounds: number;
  minRounds: number;
  /** Runs parked at once for `heap` (fewer, down to `minParked`, when runs are slow). */
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

/** Two things timed in turns in one process: `first` (the reference) and `second`. */
export interface PairSample {
  first: Timing;
  second: Timing;
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

/** How many rounds, and calls per batch, fit the budget. */
function plan(perCallMs: number, minRounds: number, budget: Budget): { rounds: number; batch: number } {
  const rounds = Math.max(minRounds, Math.min(budget.rounds, Math.floor(budget.measureMs / perCallMs)));
  return { rounds, batch: Math.max(1, Math.round(budget.measureMs / rounds / perCallMs)) };
}

function scaled(timing: Timing, divisor: number): Timing {
  return {
    medianUs: timing.medianUs / divisor,
    meanUs: timing.meanUs / divisor,
    minUs: timing.minUs / divisor,
  };
}

/** A contender for `script`, and its run checked: the run must end with the script's final text. */
async function prepare(spec: CaseSpec, script: Script, label: string, name = spec.contender) {
  const contender: Contender = await (await ANY_CONTENDERS[name].load()).create({
    script,
    hooks: seamHooks(spec.perSeam, spec.mode),
  });
  const run = async () => {
    const text = await contender.run();
    if (text !== FINAL_TEXT)
      throw new BenchCheckError(`${label}: the run ended with ${JSON.stringify(text)}`);
    script.finished++;
  };
  opened.push(contender);
  return { run, setup: contender.setup?.bind(contender) };
}

/** The contenders this process made: closed (and their last checks made) after measuring. */
const opened: Contender[] = [];

async function closeAll(): Promise<void> {
  for (const contender of opened.splice(0)) await contender.close?.();
}

async function measureHeap(spec: CaseSpec, budget: Budget, label: string): Promise<HeapSample> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new BenchCheckError("bench/compare: heap cases need node --expose-gc");
  const gate = new Gate(PARK_AT_STEP);
  const script = new Script(spec.steps, gate);
  const { run, setup } = await prepare(spec, script, label);
  await setup?.();
  // As many runs as reach the gate in about `parkMs` (a run parks about half-way through).
  const runMs = await warm(run, budget.warmupMs, 2, budget.clock);
  const parked = Math.max(budget.minParked, Math.min(budget.parked, Math.floor(budget.parkMs / (runMs / 2))));
  await setup?.();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  gate.arm();
  const runs = Array.from({ length: parked }, () => run());
  await gate.arrivals(parked);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  gate.release();
  await Promise.all(runs);
  verifyCounts(label, [script], spec.perSeam);
  return { bytesPerRun: (after - before) / parked, parked };
}

/** 100 runs one after the other (`first`) against 100 runs at once (`second`); µs per run. */
async function measureConcurrent(spec: CaseSpec, budget: Budget, label: string): Promise<PairSample> {
  const script = new Script(spec.steps);
  const { run, setup } = await prepare(spec, script, label);
  const cases = {
    first: async () => {
      for (let index = 0; index < CONCURRENT_RUNS; index++) await run();
    },
    second: () => Promise.all(Array.from({ length: CONCURRENT_RUNS }, () => run())),
  };
  await setup?.();
  const runMs = await warm(run, budget.warmupMs, 2, budget.clock);
  // A round is 2 × 100 runs: three (--quick: two) are enough even for the slowest frameworks.
  const { rounds, batch } = plan(2 * CONCURRENT_RUNS * runMs, Math.min(3, budget.minRounds), budget);
  const timings = await measureAll(cases, { warmup: 0, rounds, batch, setup, clock: budget.clock });
  verifyCounts(label, [script], spec.perSeam);
  return { first: scaled(timings.first, CONCURRENT_RUNS), second: scaled(timings.second, CONCURRENT_RUNS) };
}

/** Runs of `SHORT_STEPS` (`first`) against runs of `spec.steps` (`second`); µs per step. */
async function measureSteps(spec: CaseSpec, budget: Budget, label: string): Promise<PairSample> {
  const short = new Script(SHORT_STEPS);
  const long = new Script(spec.steps);
  const first = await prepare(spec, short, label);
  const second = await prepare(spec, long, label);
  // As many short runs per call as make the steps of one long run.
  const shortRuns = Math.max(1, Math.round(spec.steps / SHORT_STEPS));
  const cases = {
    first: async () => {
      for (let index = 0; index < shortRuns; index++) await first.run();
    },
    second: second.run,
  };
  const setup = async () => {
    await first.setup?.();
    await second.setup?.();
  };
  await setup();
  const shortMs = await warm(first.run, budget.warmupMs / 2, 2, budget.clock);
  const longMs = await warm(second.run, budget.warmupMs / 2, 2, budget.clock);
  const { rounds, batch } = plan(shortRuns * shortMs + longMs, budget.minRounds, budget);
  const timings = await measureAll(cases, { warmup: 0, rounds, batch, setup, clock: budget.clock });
  verifyCounts(label, [short, long], spec.perSeam);
  return {
    first: scaled(timings.first, shortRuns * SHORT_STEPS),
    second: scaled(timings.second, spec.steps),
  };
}

/** The contender (`second`) against its reference (`first`), timed in turns; µs per run. */
async function measureVersus(spec: CaseSpec, budget: Budget, label: string): Promise<PairSample> {
  const reference = ANY_CONTENDERS[spec.contender].reference as AnyContenderName | undefined;
  if (reference === undefined)
    throw new BenchCheckError(`bench/compare: ${spec.contender} has no reference to be timed against`);
  const scripts = [new Script(spec.steps), new Script(spec.steps)] as const;
  const first = await prepare(spec, scripts[0], `${label}, its reference`, reference);
  const second = await prepare(spec, scripts[1], label);
  const setup = async () => {
    await first.setup?.();
    await second.setup?.();
  };
  await setup();
  const firstMs = await warm(first.run, budget.warmupMs / 2, 2, budget.clock);
  const secondMs = await warm(second.run, budget.warmupMs / 2, 2, budget.clock);
  const { rounds, batch } = plan(firstMs + secondMs, budget.minRounds, budget);
  const timings = await measureAll(
    { first: first.run, second: second.run },
    { warmup: 0, rounds, batch, setup, clock: budget.clock },
  );
  verifyCounts(label, [...scripts], spec.perSeam);
  return timings;
}

/** One run after another; prints the line bench/shared/forks.ts reads. */
async function measureTime(spec: CaseSpec, budget: Budget, name: string, label: string): Promise<void> {
  const script = new Script(spec.steps);
  const { run, setup } = await prepare(spec, script, label);
  await setup?.();
  const { rounds, batch } = plan(await warm(run, budget.warmupMs, 2, budget.clock), budget.minRounds, budget);
  await forkedCase({ [name]: { run, setup } }, { warmup: 0, rounds, batch, clock: budget.clock });
  verifyCounts(label, [script], spec.perSeam);
}

/** In a fork: measures the case named on the command line and prints its result line. */
export async function runCase(name: string, budget: Budget): Promise<void> {
  const spec = parseCase(name);
  const label = `${ANY_CONTENDERS[spec.contender].heading.join(" ")} (${name})`;
  try {
    if (spec.kind === "time") await measureTime(spec, budget, name, label);
    else if (spec.kind === "steps") report(await measureSteps(spec, budget, label));
    else if (spec.kind === "concurrent") report(await measureConcurrent(spec, budget, label));
    else if (spec.kind === "versus") report(await measureVersus(spec, budget, label));
    else report(await measureHeap(spec, budget, label));
  } finally {
    await closeAll();
  }
}
