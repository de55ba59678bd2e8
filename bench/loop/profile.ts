/**
 * Profiling helper for bench/loop: runs agent.run() (or stream() with `--stream`) in a
 * tight loop for a few seconds. Use with `node --import tsx --cpu-prof bench/loop/profile.ts`.
 */
import { createAgent } from "../../src/index.js";
import { drain, INPUT, INSTRUCTIONS, replayModel, toolSteps, tools } from "../shared/workload.js";

const streaming = process.argv.includes("--stream");
const model = replayModel(toolSteps(10));
const logger = { debug() {}, info() {}, warn() {}, error() {} };
let agent = createAgent({ name: "bench", model, instructions: INSTRUCTIONS, tools, maxSteps: 10, logger });
const until = Date.now() + 4000;
let runs = 0;
while (Date.now() < until) {
  if (runs % 100 === 0)
    agent = createAgent({ name: "bench", model, instructions: INSTRUCTIONS, tools, maxSteps: 10, logger });
  model.reset();
  await (streaming ? drain(agent.stream(INPUT)) : agent.run(INPUT));
  runs++;
}
console.log(`${runs} runs, ${((4000 * 1000) / runs).toFixed(1)} µs/run`);
