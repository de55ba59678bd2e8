/**
 * bench/compare: the same workload through hookwise, a hand-written plain loop, the AI SDK,
 * OpenAI Agents JS and LangChain.js, with 0 / 10 / 50 sync or async hooks per seam, 100
 * concurrent runs, heap per in-flight run, and 10 vs 100 steps; one table with ratios to
 * the plain loop and to `generateText`. See bench/compare/README.md.
 *
 *   npm run bench:compare              (builds dist/ first; ≤ 15 min on 2 cores)
 *   npm run bench:compare -- --quick   (fewer cases, one process each; ≤ 2 min)
 *   … -- --wall                        (wall-clock instead of CPU time per run)
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { measureForked } from "../shared/forks.js";
import { machine, type Timing } from "../shared/measure.js";
import { type Budget, type CaseSpec, CONCURRENT_RUNS, caseName, PARK_AT_STEP, runCase } from "./case.js";
import { CONTENDER_NAMES, CONTENDERS, type ContenderName } from "./contender.js";
import { measureHeapForked } from "./fork-heap.js";
import type { HookMode } from "./seam-hooks.js";
import { printTable, type Row } from "./table.js";

const quick = process.argv.includes("--quick");
const wall = process.argv.includes("--wall");
const SCRIPT = fileURLToPath(import.meta.url);
const PASS = [...(quick ? ["--quick"] : []), ...(wall ? ["--wall"] : [])];

const BUDGET: Budget = {
  clock: wall ? "wall" : "cpu",
  ...(quick
    ? { warmupMs: 150, measureMs: 300, rounds: 7, minRounds: 3, parked: 200, minParked: 50, parkMs: 1000 }
    : {
        warmupMs: 300,
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
const CONCURRENT_FORKS = quick ? 1 : 2;
const HEAP_FORKS = quick ? 1 : 2;

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
 * µs per call of each contender's case (÷ `scale`): the median over its processes, and the
 * fastest batch any of them timed (how much of the median is the machine's noise).
 * Skipped cases are undefined.
 */
function timed(
  kind: CaseSpec["kind"],
  steps: number,
  config: Config,
  forks: number,
  scale = 1,
): { median: Values; fastest: Values } {
  const byContender = names(kind, steps, config);
  const measured = Object.values(byContender).filter((name) => SKIPPED[name] === undefined);
  progress(`${kind === "time" ? "" : `${kind}, `}${steps} steps, ${describe(config)}`);
  const timings: Record<string, Timing> = measureForked(SCRIPT, measured, forks, PASS);
  const pick = (field: "medianUs" | "minUs") =>
    each((contender) => {
      const timing = timings[byContender[contender]];
      return timing && timing[field] / scale;
    });
  return { median: pick("medianUs"), fastest: pick("minUs") };
}

function heap(config: Config, notes: string[]): Values {
  const byContender = names("heap", 10, config);
  progress(`heap, ${describe(config)}`);
  const samples = measureHeapForked(SCRIPT, Object.values(byContender), HEAP_FORKS, PASS);
  const fewer = CONTENDER_NAMES.filter(
    (contender) => samples[byContender[contender]]!.parked < BUDGET.parked,
  );
  if (fewer.length > 0)
    notes.push(
      `heap, ${describe(config)}: ${fewer
        .map(
          (contender) =>
            `${CONTENDERS[contender].heading.join(" ")} ${samples[byContender[contender]]!.parked}`,
        )
        .join(", ")} runs parked (slower runs; the others ${BUDGET.parked})`,
    );
  return each((contender) => samples[byContender[contender]]!.bytesPerRun / 1024);
}

function divide(numerator: Values, denominator: Values, scale = 1): Values {
  return each((contender) => {
    const top = numerator[contender];
    const bottom = denominator[contender];
    return top === undefined || bottom === undefined ? undefined : top / (bottom * scale);
  });
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  console.error(`bench/compare${quick ? " --quick" : ""}: every case in processes of its own…`);
  const rows: Row[] = [];
  const notes: string[] = [];
  const alone = new Map<string, Values>();
  for (const config of HOOK_CONFIGS) {
    const perRun = timed("time", 10, config, FORKS);
    alone.set(describe(config), perRun.median);
    rows.push({
      label: `10 steps, ${describe(config)}`,
      unit: "µs/run",
      values: perRun.median,
      fastest: perRun.fastest,
      ratios: true,
    });
  }
  const hundred = timed("time", 100, NO_HOOKS, FORKS, 100);
  rows.push({
    label: "100 steps, no hooks",
    unit: "µs/step",
    values: hundred.median,
    fastest: hundred.fastest,
    ratios: true,
  });
  rows.push({
    label: "  per step, 100 ÷ 10 steps",
    unit: "×",
    values: divide(hundred.median, alone.get(describe(NO_HOOKS))!, 1 / 10),
  });
  for (const config of CONCURRENT_CONFIGS) {
    const perRun = timed("concurrent", 10, config, CONCURRENT_FORKS, CONCURRENT_RUNS);
    rows.push({
      label: `${CONCURRENT_RUNS} concurrent, ${describe(config)}`,
      unit: "µs/run",
      values: perRun.median,
      fastest: perRun.fastest,
      ratios: true,
    });
    rows.push({
      label: "  ÷ one run alone",
      unit: "×",
      values: divide(perRun.median, alone.get(describe(config))!),
    });
  }
  for (const config of HEAP_CONFIGS)
    rows.push({
      label: `heap per parked run, ${describe(config)}`,
      unit: "KB",
      values: heap(config, notes),
      ratios: true,
    });
  for (const [name, reason] of Object.entries(SKIPPED)) if (reason) notes.push(`${name}: ${reason}`);

  console.log(
    `bench/compare — ${machine()}; load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
  );
  console.log(
    "workload: 10 (or 100) steps of 2 tool calls, then a final answer; instant fake model; hookwise measured on dist/.\n" +
      (wall
        ? "Times are wall-clock time per run.\n"
        : "Times are the CPU time (user + system) the process used per run (--wall: wall-clock time).\n") +
      `Medians over ${FORKS} process(es) per case (concurrent: ${CONCURRENT_FORKS}, heap: ${HEAP_FORKS}); ` +
      `heap: runs parked at model call ${PARK_AT_STEP + 1} of 11, after forced GC.\n` +
      "Every case checked its call counts (model calls, tool executions, hook firings) exactly.",
  );
  printTable(CONTENDER_NAMES, rows);
  for (const note of notes) console.log(`  - ${note}`);
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const forkCase = process.argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
if (forkCase === undefined) await main();
else await runCase(forkCase, BUDGET);
