/**
 * bench/scale: hookwise where real hooks are — async hooks, many runs at once, streaming with
 * hooks, and memory per in-flight run. It measures bench/compare's cases (the same workload,
 * instant model and call-count checks; bench/compare/case.ts) for the plain loop and hookwise
 * only, each case in processes of its own, and prints every target as met or missed:
 *
 *   (a) an async no-op hook firing costs ≤ 0.3 µs more than a sync one
 *       (run() at 50 async vs 50 sync hooks per seam, the difference ÷ hook firings per run);
 *   (b) 100 concurrent runs with 50 async hooks per seam cost ≤ 1.5× per run what runs one
 *       after another cost (both timed in turns in one process);
 *   (c) no MaxListenersExceededWarning with 60 pending async hooks under a caller's signal;
 *   (d) stream() at 50 hooks per seam ≤ 2× run() at the same hooks;
 *   (e) ≤ 8 KB heap per in-flight 10-step run, no hooks (1,000 runs parked at step 5, after
 *       forced GC).
 *     It also prints a plain loop over the model's stream (doStream) at the same hooks: what
 *     reading a model's stream costs a loop that adds nothing, so what stream() adds beside it
 *     shows. On Node 20 most of it is making the model's ReadableStream, once per model call.
 * (stream() at no hooks against the plain doStream loop is bench/loop's.)
 *
 *   npm run build && npx tsx bench/scale/run.ts   (measures dist/, what ships)
 *   … --quick                                      (one process per case, shorter budgets)
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { AnyHook, HookLogger } from "../../src/index.js";
import {
  type Budget,
  type CaseSpec,
  CONCURRENT_RUNS,
  caseName,
  type HeapSample,
  type PairSample,
  runCase,
} from "../compare/case.js";
import { measureJsonForked, median } from "../compare/fork-json.js";
import { expectedPerRun } from "../compare/script.js";
import { measureForked } from "../shared/forks.js";
import { hookwise } from "../shared/hookwise.js";
import { format, machine, verdict } from "../shared/measure.js";
import { INPUT, INSTRUCTIONS, replayModel, toolSteps, tools } from "../shared/workload.js";

const quick = process.argv.includes("--quick");
const SCRIPT = fileURLToPath(import.meta.url);
const PASS = quick ? ["--quick"] : [];
const FORKS = quick ? 1 : 5;
const PAIR_FORKS = quick ? 1 : 5;
const BUDGET: Budget = {
  clock: "cpu",
  ...(quick
    ? { warmupMs: 600, measureMs: 300, rounds: 7, minRounds: 2, parked: 1000, minParked: 200, parkMs: 3000 }
    : {
        // The JIT must be done before timing starts: the CPU clock counts its background
        // compiler threads too. After 300 ms, hookwise run()'s median read 93–125 µs against
        // 31 µs on the wall clock; after 1,500 ms, 31–32 µs on both.
        warmupMs: 1500,
        measureMs: 800,
        rounds: 15,
        minRounds: 5,
        parked: 1000,
        minParked: 1000,
        parkMs: 3000,
      }),
};

const spec = (
  kind: CaseSpec["kind"],
  contender: CaseSpec["contender"],
  perSeam: number,
  mode: CaseSpec["mode"] = "sync",
) => caseName({ kind, contender, steps: 10, perSeam, mode });

const CASES = {
  runSync0: spec("time", "hookwiseRun", 0),
  runSync50: spec("time", "hookwiseRun", 50),
  runAsync50: spec("time", "hookwiseRun", 50, "async"),
  streamSync50: spec("time", "hookwiseStream", 50),
  streamQuietSync50: spec("time", "hookwiseStreamQuiet", 50),
  streamSync0: spec("time", "hookwiseStream", 0),
  plainSync50: spec("time", "plain", 50),
  plainAsync50: spec("time", "plain", 50, "async"),
  plainStreamSync0: spec("time", "plainStream", 0),
  plainStreamSync50: spec("time", "plainStream", 50),
};
const CONCURRENT = spec("concurrent", "hookwiseRun", 50, "async");
const HEAP = spec("heap", "hookwiseRun", 0);
const HEAP_PLAIN = spec("heap", "plain", 0);

/** Hook firings per 10-step run at 50 hooks per seam (two model seams, two tool seams). */
const FIRINGS = (() => {
  const expected = expectedPerRun(10, 50);
  return 2 * expected.modelSeam + 2 * expected.toolSeam;
})();

/** (c): runs with a caller's signal and `count` pending async hooks; the warnings Node printed. */
async function listenerWarnings(count: number): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  const silent: HookLogger = { debug() {}, info() {}, warn() {}, error() {} };
  const hooks = Array.from(
    { length: count },
    (_, index) =>
      ({
        name: `slow_${index}`,
        on: "model_response",
        kind: "inspect",
        handler: () => new Promise((resolve) => setTimeout(resolve, 5)),
      }) as unknown as AnyHook,
  );
  const model = replayModel(toolSteps(2));
  const agent = hookwise.createAgent({
    name: "bench",
    model,
    instructions: INSTRUCTIONS,
    tools,
    hooks,
    maxSteps: 2,
    logger: silent,
  });
  for (let index = 0; index < 3; index++) {
    model.reset();
    const result = await agent.run(INPUT, { signal: new AbortController().signal });
    if (result.outcome !== "max_steps")
      throw new Error(`(c): unexpected outcome ${result.outcome}: ${result.reason}`);
  }
  // Warnings are emitted on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  process.off("warning", onWarning);
  return warnings;
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `bench/scale${quick ? " --quick" : ""} — ${machine()}; load average ${loadavg()[0]!.toFixed(2)}; measuring dist/; ` +
      "10-step runs, 2 tool calls per step, instant model; CPU time per run; medians over processes\n",
  );
  const t = measureForked(SCRIPT, Object.values(CASES), FORKS, PASS);
  const us = (name: keyof typeof CASES) => t[CASES[name]]!.medianUs;
  const row = (label: string, value: number, unit: string, extra = "") =>
    console.log(`    ${label.padEnd(52)} ${format(value, 1, 9)} ${unit.padEnd(6)} ${extra}`);

  console.log(
    "(a) async hooks: 50 no-op hooks per seam (model_request, model_response, tool_call, tool_result)",
  );
  row("run(), no hooks", us("runSync0"), "µs/run");
  row("run(), 50 sync hooks per seam", us("runSync50"), "µs/run");
  row("run(), 50 async hooks per seam", us("runAsync50"), "µs/run");
  row("plain loop, 50 sync hooks per seam", us("plainSync50"), "µs/run");
  row("plain loop, 50 async hooks per seam (each awaited)", us("plainAsync50"), "µs/run");
  const extraUs = (us("runAsync50") - us("runSync50")) / FIRINGS;
  const plainExtraUs = (us("plainAsync50") - us("plainSync50")) / FIRINGS;
  console.log(
    `    an async firing costs ${extraUs.toFixed(3)} µs more than a sync one (${FIRINGS} firings per run; ` +
      `plain loop: ${plainExtraUs.toFixed(3)} µs) — target ≤ 0.3 µs: ${verdict(extraUs <= 0.3)}\n`,
  );

  console.log(`(b) ${CONCURRENT_RUNS} concurrent runs, 50 async hooks per seam, run()`);
  const pairs = measureJsonForked<PairSample>(SCRIPT, [CONCURRENT], PAIR_FORKS, PASS)[CONCURRENT]!;
  const alone = median(pairs.map((pair) => pair.first.medianUs));
  const together = median(pairs.map((pair) => pair.second.medianUs));
  const ratio = median(pairs.map((pair) => pair.second.medianUs / pair.first.medianUs));
  row("one after another", alone, "µs/run");
  row(
    `${CONCURRENT_RUNS} at once`,
    together,
    "µs/run",
    `${ratio.toFixed(2)}× — target ≤ 1.5×: ${verdict(ratio <= 1.5)}\n`,
  );

  console.log("(c) 60 pending async inspect hooks under a caller's signal (3 runs)");
  const warnings = await listenerWarnings(60);
  console.log(
    `    warnings: ${warnings.length === 0 ? "none" : warnings.join("; ")} — target none: ${verdict(
      !warnings.some((warning) => warning.startsWith("MaxListenersExceededWarning")),
    )}\n`,
  );

  console.log("(d) streaming with hooks");
  row(
    "stream(), no hooks",
    us("streamSync0"),
    "µs/run",
    `${(us("streamSync0") / us("runSync0")).toFixed(2)}× run()`,
  );
  const streamRatio = us("streamSync50") / us("runSync50");
  row(
    "stream(), 50 sync hooks per seam",
    us("streamSync50"),
    "µs/run",
    `${streamRatio.toFixed(2)}× run() at the same hooks — target ≤ 2×: ${verdict(streamRatio <= 2)}`,
  );
  row(
    "stream({ hookEvents: false }), 50 sync hooks per seam",
    us("streamQuietSync50"),
    "µs/run",
    `${(us("streamQuietSync50") / us("runSync50")).toFixed(2)}× run() (no hook events in the stream)`,
  );
  // What any streaming loop pays that run() does not: the model's stream parts, read one by one.
  row("plain loop over doStream, no hooks", us("plainStreamSync0"), "µs/run");
  row(
    "plain loop over doStream, 50 sync hooks per seam",
    us("plainStreamSync50"),
    "µs/run",
    `${(us("plainStreamSync50") / us("plainSync50")).toFixed(2)}× the plain loop over doGenerate`,
  );
  console.log(
    `    the model's stream costs the plain loop ${(us("plainStreamSync50") - us("plainSync50")).toFixed(1)} µs per run; ` +
      `stream() costs ${(us("streamSync50") - us("runSync50")).toFixed(1)} µs more than run() ` +
      `(${(us("streamSync50") / us("plainStreamSync50")).toFixed(2)}× the plain doStream loop, ` +
      `against run()'s ${(us("runSync50") / us("plainSync50")).toFixed(2)}× the plain loop)\n`,
  );

  console.log("(e) heap per in-flight run (runs parked at model call 6 of 11, after forced GC)");
  const heaps = measureJsonForked<HeapSample>(SCRIPT, [HEAP, HEAP_PLAIN], 1, PASS, ["--expose-gc"]);
  const kb = (name: string) => median(heaps[name]!.map((sample) => sample.bytesPerRun)) / 1024;
  const parked = heaps[HEAP]![0]!.parked;
  row("plain loop, no hooks", kb(HEAP_PLAIN), "KB");
  row(
    `run(), no hooks (${parked} runs parked)`,
    kb(HEAP),
    "KB",
    `target ≤ 8 KB: ${verdict(kb(HEAP) <= 8 && parked >= 1000)}`,
  );
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const forkCase = process.argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
if (forkCase === undefined) await main();
else await runCase(forkCase, BUDGET);
