/**
 * bench/loop: the drive loop's own cost per step, with the scripted model and no hooks.
 * 10 steps × 2 tool calls, for run() and stream(), as a ratio to a hand-written bare loop
 * doing the same work over the same model (target ≤ 3×); then 100 steps, to show the
 * per-step cost stays flat (recording `requests` must not copy the history every step).
 *
 *   npm run build && npx tsx bench/loop/run.ts   (measures dist/, what ships)
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { Agent, HookLogger } from "../../src/index.js";
import { forkedCase, measureForked } from "../shared/forks.js";
import { hookwise } from "../shared/hookwise.js";
import { format, machine, type Timing, verdict } from "../shared/measure.js";
import {
  bareLoop,
  bareStreamLoop,
  drain,
  INPUT,
  INSTRUCTIONS,
  type ReplayModel,
  RoundStore,
  replayModel,
  toolSteps,
  tools,
} from "../shared/workload.js";

const { createAgent } = hookwise;
const TARGET_RATIO = 3;
const silent: HookLogger = { debug() {}, info() {}, warn() {}, error() {} };

function makeAgent(model: ReplayModel, steps: number, store?: RoundStore): Agent {
  return createAgent({
    name: "bench",
    model,
    instructions: INSTRUCTIONS,
    tools,
    maxSteps: steps,
    logger: silent,
    store,
  });
}

/** Checks once that the agent and the bare loop really do the work being timed. */
async function sanityCheck(steps: number): Promise<void> {
  const model = replayModel(toolSteps(steps));
  const result = await makeAgent(model, steps).run(INPUT);
  const executed = result.steps.flatMap((step) => step.toolResults).filter((entry) => entry.executed).length;
  if (result.outcome !== "max_steps" || executed !== steps * 2 || result.requests.length !== steps) {
    throw new Error(`bench workload is wrong: outcome ${result.outcome}, ${executed} tools executed`);
  }
  model.reset();
  const bare = await bareLoop(model, steps);
  if (bare !== steps * 2) throw new Error(`bare loop executed ${bare} tools, expected ${steps * 2}`);
}

/** The cases at `steps` steps; each is measured in processes of its own (bench/shared/forks.ts). */
function casesAt(steps: number) {
  const model = replayModel(toolSteps(steps));
  // One agent per fork; its store is emptied between rounds, so nothing it keeps piles up.
  const store = new RoundStore();
  const agent = makeAgent(model, steps, store);
  const fresh = () => store.reset();
  const replay =
    <T>(fn: () => T) =>
    () => {
      model.reset();
      return fn();
    };
  return {
    bare: { run: replay(() => bareLoop(model, steps)) },
    bareStream: { run: replay(() => bareStreamLoop(model, steps)) },
    run: { setup: fresh, run: replay(() => agent.run(INPUT)) },
    stream: { setup: fresh, run: replay(() => drain(agent.stream(INPUT))) },
  };
}
type LoopCase = keyof ReturnType<typeof casesAt>;
const NAMES: LoopCase[] = ["bare", "bareStream", "run", "stream"];
const FORKS = 5;

function measureAt(steps: number) {
  return measureForked(fileURLToPath(import.meta.url), NAMES, FORKS, [`--steps=${steps}`]);
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `bench/loop — ${machine()}; load average ${loadavg()[0]!.toFixed(2)}; measuring dist/ (the built package)`,
  );
  console.log(
    `scripted model, 2 tool calls per step, no hooks; each case in ${FORKS} processes of its own; median batch (mean over batches, GC spikes included; fastest batch)\n`,
  );
  await sanityCheck(10);
  await sanityCheck(100);

  const ten = measureAt(10);
  const ratioRun = ten.run.medianUs / ten.bare.medianUs;
  // A stream is measured against the bare loop over the same transport (doStream).
  const ratioStream = ten.stream.medianUs / ten.bareStream.medianUs;
  const row = (label: string, timing: Timing, extra = "") =>
    console.log(
      `  ${label.padEnd(28)} ${format(timing.medianUs)} (${format(timing.meanUs, 1, 6)} ${format(timing.minUs, 1, 6)}) ${format(timing.medianUs / 10, 2)}   ${extra}`,
    );
  console.log(
    "10 steps × 2 tool calls      median µs/run (mean  fastest)  µs/step   ratio to the bare loop (medians)",
  );
  row("bare loop (doGenerate)", ten.bare);
  row("bare loop (doStream)", ten.bareStream);
  row(
    "agent.run()",
    ten.run,
    `${ratioRun.toFixed(2)}×  (target ≤ ${TARGET_RATIO}×: ${verdict(ratioRun <= TARGET_RATIO)}; means: ${(ten.run.meanUs / ten.bare.meanUs).toFixed(2)}×)`,
  );
  row(
    "agent.stream(), drained",
    ten.stream,
    `${ratioStream.toFixed(2)}× the bare doStream loop (target ≤ ${TARGET_RATIO}×: ${verdict(ratioStream <= TARGET_RATIO)}); ` +
      `${(ten.stream.medianUs / ten.bare.medianUs).toFixed(2)}× the bare doGenerate loop`,
  );

  const hundred = measureAt(100);
  console.log("\nlinearity: µs per step        10 steps   100 steps   100 ÷ 10");
  const line = (label: string, at10: number, at100: number) =>
    console.log(
      `  ${label.padEnd(26)} ${format(at10 / 10, 2)} ${format(at100 / 100, 2, 11)}   ${(at100 / 100 / (at10 / 10)).toFixed(2)}×`,
    );
  line("bare loop (doGenerate)", ten.bare.medianUs, hundred.bare.medianUs);
  line("agent.run()", ten.run.medianUs, hundred.run.medianUs);
  line("agent.stream()", ten.stream.medianUs, hundred.stream.medianUs);
  console.log(
    `  (one 100-step run: run() ${hundred.run.medianUs.toFixed(0)} µs, stream() ${hundred.stream.medianUs.toFixed(0)} µs)`,
  );
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// In a fork: measure the one case named on the command line (at `--steps=N`), print, exit.
const stepsArgument = process.argv.find((arg) => arg.startsWith("--steps="));
const forkSteps = Number(stepsArgument?.slice("--steps=".length) ?? 10);
const forkOptions =
  forkSteps >= 100 ? { warmup: 300, rounds: 41, batch: 6 } : { warmup: 3000, rounds: 61, batch: 50 };
if (!(await forkedCase(stepsArgument ? casesAt(forkSteps) : {}, forkOptions))) await main();
