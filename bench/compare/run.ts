/**
 * bench/compare: the same workload through hookwise, a hand-written plain loop, the AI SDK,
 * OpenAI Agents JS and LangChain.js, with 0 / 10 / 50 sync or async hooks per seam, 100
 * concurrent runs, heap per in-flight run, and 10 vs 100 steps; one table with ratios to
 * the plain loop and to `generateText`. See bench/compare/README.md.
 *
 *   npm run bench:compare              (builds dist/ first; ≤ 15 min on 2 cores)
 *   npm run bench:compare -- --quick   (fewer cases, one process each; ≤ 2 min)
 *   … -- --wall                        (wall-clock instead of CPU time per run)
 *   … -- --stores                      (only the stores' table: SQLite, Redis, recorded runs)
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { measureForked } from "../shared/forks.js";
import { machine, type Timing } from "../shared/measure.js";
import {
  type Budget,
  type CaseSpec,
  CONCURRENT_RUNS,
  caseName,
  type HeapSample,
  PARK_AT_STEP,
  type PairSample,
  runCase,
  SHORT_STEPS,
} from "./case.js";
import { CONTENDER_NAMES, CONTENDERS, type ContenderName } from "./contender-list.js";
import { measureJsonForked, median } from "./fork-json.js";
import { BenchCheckError } from "./script.js";
import type { HookMode } from "./seam-hooks.js";
import { checkStoreRows, measureStoreRows, printStoreRows } from "./store-rows.js";
import { printTable, type Row } from "./table.js";

const quick = process.argv.includes("--quick");
const wall = process.argv.includes("--wall");
const storesOnly = process.argv.includes("--stores");
const SCRIPT = fileURLToPath(import.meta.url);
const PASS = [...(quick ? ["--quick"] : []), ...(wall ? ["--wall"] : [])];

const BUDGET: Budget = {
  clock: wall ? "wall" : "cpu",
  ...(quick
    ? { warmupMs: 600, measureMs: 250, rounds: 7, minRounds: 2, parked: 200, minParked: 50, parkMs: 800 }
    : {
        // The JIT must be done before timing starts: the CPU clock counts its background
        // compiler threads too. After 300 ms, hookwise run()'s median read 93–125 µs against
        // 31 µs on the wall clock; after 1,500 ms, 31–32 µs on both.
        warmupMs: 1500,
        measureMs: 800,
        rounds: 15,
        minRounds: 5,
        parked: 1000,
        minParked: 100,
        parkMs: 3000,
      }),
};
/** Processes per case. */
const FORKS = quick ? 1 : 3;
const PAIR_FORKS = quick ? 1 : 2;
/** Heap after forced GC moves little from process to process. */
const HEAP_FORKS = 1;

interface Config {
  perSeam: number;
  mode: HookMode;
}
const NO_HOOKS: Config = { perSeam: 0, mode: "sync" };
const HOOK_CONFIGS: Config[] = quick
  ? [NO_HOOKS, { perSeam: 50, mode: "async" }]
  : [
      NO_HOOKS,
      { perSeam: 10, mode: "sync" },
      { perSeam: 10, mode: "async" },
      { perSeam: 50, mode: "sync" },
      { perSeam: 50, mode: "async" },
    ];
const LONG_STEPS = 100;
const CONCURRENT_CONFIGS: Config[] = quick ? [NO_HOOKS] : [NO_HOOKS, { perSeam: 50, mode: "async" }];
const HEAP_CONFIGS: Config[] = quick ? [NO_HOOKS] : [NO_HOOKS, { perSeam: 50, mode: "sync" }];
/**
 * Cases left out, with the reason printed under the table: one LangChain run with 50
 * middleware takes about a second here (LangGraph runs each beforeModel / afterModel as a
 * node of its own), so rounds of 100 concurrent runs would take minutes each.
 */
const SKIPPED: Partial<Record<string, string>> = {
  "concurrent:langchain:10:50:async":
    "LangChain, 100 concurrent runs with 50 middleware: minutes per round; not run",
};

type Values = Record<ContenderName, number | undefined>;

function describe({ perSeam, mode }: Config): string {
  return perSeam === 0 ? "no hooks" : `${perSeam} ${mode} hooks per seam`;
}

function names(kind: CaseSpec["kind"], steps: number, config: Config): Record<ContenderName, string> {
  return Object.fromEntries(
    CONTENDER_NAMES.map((contender) => [contender, caseName({ kind, contender, steps, ...config })]),
  ) as Record<ContenderName, string>;
}

function each(fn: (contender: ContenderName) => number | undefined): Values {
  return Object.fromEntries(CONTENDER_NAMES.map((contender) => [contender, fn(contender)])) as Values;
}

const started = Date.now();
const progress = (what: string) =>
  console.error(`  ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  measuring: ${what}`);

/**
 * µs per run of each contender's `time` case: the median over its processes, and the
 * fastest batch any of them timed (how much of the median is the machine's noise).
 */
function timed(steps: number, config: Config): { median: Values; fastest: Values } {
  const byContender = names("time", steps, config);
  progress(`${steps} steps, ${describe(config)}`);
  const timings: Record<string, Timing> = measureForked(SCRIPT, Object.values(byContender), FORKS, PASS);
  const pick = (field: "medianUs" | "minUs") => each((contender) => timings[byContender[contender]]![field]);
  return { median: pick("medianUs"), fastest: pick("minUs") };
}

/** Each contender's samples of a case that reports JSON (bench/compare/fork-json.ts). */
function sampled<T>(
  kind: CaseSpec["kind"],
  steps: number,
  config: Config,
  forks: number,
  nodeFlags: string[] = [],
): Record<ContenderName, T[] | undefined> {
  const byContender = names(kind, steps, config);
  const measured = Object.values(byContender).filter((name) => SKIPPED[name] === undefined);
  progress(`${kind}, ${steps} steps, ${describe(config)}`);
  const samples = measureJsonForked<T>(SCRIPT, measured, forks, PASS, nodeFlags);
  return Object.fromEntries(
    CONTENDER_NAMES.map((contender) => [contender, samples[byContender[contender]]]),
  ) as Record<ContenderName, T[] | undefined>;
}

/** Rows of a pair case: the second's median and fastest (÷ `scale`), and the median ratio second ÷ first. */
function pairRows(
  samples: Record<ContenderName, PairSample[] | undefined>,
  label: string,
  unit: string,
  ratioLabel: string,
): Row[] {
  const over = (fn: (list: PairSample[]) => number) =>
    each((contender) => {
      const list = samples[contender];
      return list && fn(list);
    });
  return [
    {
      label,
      unit,
      values: over((list) => median(list.map((sample) => sample.second.medianUs))),
      fastest: over((list) => Math.min(...list.map((sample) => sample.second.minUs))),
      ratios: true,
    },
    {
      label: ratioLabel,
      unit: "×",
      values: over((list) => median(list.map((sample) => sample.second.medianUs / sample.first.medianUs))),
    },
  ];
}

function heap(config: Config, notes: string[]): Values {
  const samples = sampled<HeapSample>("heap", 10, config, HEAP_FORKS, ["--expose-gc"]);
  const parked = each((contender) => Math.min(...samples[contender]!.map((sample) => sample.parked)));
  const fewer = CONTENDER_NAMES.filter((contender) => parked[contender]! < BUDGET.parked);
  if (fewer.length > 0)
    notes.push(
      `heap, ${describe(config)}: ${fewer
        .map((contender) => `${CONTENDERS[contender].heading.join(" ")} ${parked[contender]}`)
        .join(", ")} runs parked (slower runs; the others ${BUDGET.parked})`,
    );
  return each((contender) => median(samples[contender]!.map((sample) => sample.bytesPerRun)) / 1024);
}

/** The stores' table alone (`--stores`). */
function storesMain(): void {
  const loadBefore = loadavg()[0]!;
  progress("hookwise run() on SQLite, Redis and a store of one's own, recorded or not");
  const rows = measureStoreRows(SCRIPT, PAIR_FORKS, PASS);
  console.log(
    `bench/compare --stores — ${machine()}; load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
  );
  printStoreRows(rows);
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  checkStoreRows(rows);
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  console.error(`bench/compare${quick ? " --quick" : ""}: every case in processes of its own…`);
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const config of HOOK_CONFIGS) {
    const perRun = timed(10, config);
    rows.push({
      label: `10 steps, ${describe(config)}`,
      unit: "µs/run",
      values: perRun.median,
      fastest: perRun.fastest,
      ratios: true,
    });
  }
  rows.push(
    ...pairRows(
      sampled<PairSample>("steps", LONG_STEPS, NO_HOOKS, PAIR_FORKS),
      `${LONG_STEPS} steps, no hooks`,
      "µs/step",
      `  per step, ${LONG_STEPS} ÷ ${SHORT_STEPS} steps`,
    ),
  );
  for (const config of CONCURRENT_CONFIGS)
    rows.push(
      ...pairRows(
        sampled<PairSample>("concurrent", 10, config, PAIR_FORKS),
        `${CONCURRENT_RUNS} concurrent, ${describe(config)}`,
        "µs/run",
        `  ÷ ${CONCURRENT_RUNS} one after another`,
      ),
    );
  for (const config of HEAP_CONFIGS)
    rows.push({
      label: `heap per parked run, ${describe(config)}`,
      unit: "KB",
      values: heap(config, notes),
      ratios: true,
    });
  for (const [name, reason] of Object.entries(SKIPPED)) if (reason) notes.push(`${name}: ${reason}`);
  progress("hookwise run() on SQLite, Redis and a store of one's own, recorded or not");
  const storeRows = measureStoreRows(SCRIPT, PAIR_FORKS, PASS);

  console.log(
    `bench/compare — ${machine()}; load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
  );
  console.log(
    "workload: 10 (or 100) steps of 2 tool calls, then a final answer; instant fake model; hookwise measured on dist/.\n" +
      (wall
        ? "Times are wall-clock time per run.\n"
        : "Times are the CPU time (user + system) the process used per run (--wall: wall-clock time).\n") +
      `Medians over ${FORKS} process(es) per case (steps and concurrent: ${PAIR_FORKS}, heap: ${HEAP_FORKS}); ` +
      "under each median, the fastest batch any process timed.\n" +
      `"${LONG_STEPS} ÷ ${SHORT_STEPS} steps" and "÷ ${CONCURRENT_RUNS} one after another": both sides timed in turns in one process.\n` +
      `Heap: runs parked at model call ${PARK_AT_STEP + 1} of 11, after forced GC.\n` +
      "Every case checked its call counts (model calls, tool executions, hook firings) exactly.",
  );
  printTable(CONTENDER_NAMES, rows);
  for (const note of notes) console.log(`  - ${note}`);
  printStoreRows(storeRows);
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  checkStoreRows(storeRows);
}

const forkCase = process.argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
try {
  if (forkCase === undefined) await (storesOnly ? storesMain() : main());
  else await runCase(forkCase, BUDGET);
} catch (error) {
  // A failed check says all in its message, and so does the parent's (a case failed in its
  // process, which printed why just above); a framework's own error keeps its stack.
  console.error(
    error instanceof BenchCheckError || forkCase === undefined ? String((error as Error).message) : error,
  );
  process.exit(1);
}
