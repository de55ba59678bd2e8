/**
 * Profiling helper for bench/loop (measures dist/, so `npm run build` first): runs
 * agent.run() (or stream() with `--stream`) in a tight loop for a few seconds.
 *
 *   node --import tsx --cpu-prof bench/loop/profile.ts [--stream]   CPU profile (.cpuprofile)
 *   npx tsx bench/loop/profile.ts --heap [--bare]                    bytes allocated per run, by function
 * `--hooks[=N]`: with N (default 10) no-op hooks on every event (bench/hooks (b)).
 */
import { Session } from "node:inspector/promises";
import type { Agent, AnyHook } from "../../src/index.js";
import { hookwise } from "../shared/hookwise.js";
import { bareLoop, drain, INPUT, INSTRUCTIONS, replayModel, toolSteps, tools } from "../shared/workload.js";

const streaming = process.argv.includes("--stream");
const model = replayModel(toolSteps(10));
const logger = { debug() {}, info() {}, warn() {}, error() {} };
let sink: unknown;
const hooks: AnyHook[] = [];
const hooksFlag = process.argv.find((arg) => arg.startsWith("--hooks"));
const hooksPerEvent = hooksFlag === undefined ? 0 : Number(hooksFlag.split("=")[1] ?? 10);
if (hooksPerEvent > 0)
  for (const event of hookwise.EVENT_NAMES) {
    const kind = hookwise.EVENT_KINDS[event].includes("transform") ? "transform" : "inspect";
    for (let index = 0; index < hooksPerEvent; index++)
      hooks.push({
        name: `${event}_${index}`,
        on: event,
        kind,
        handler: (payload: unknown) => {
          sink = payload;
        },
      } as AnyHook);
  }
const makeAgent = () =>
  hookwise.createAgent({
    name: "bench",
    model,
    instructions: INSTRUCTIONS,
    tools,
    hooks,
    maxSteps: 10,
    logger,
  });
let agent: Agent = makeAgent();

async function once(index: number): Promise<void> {
  // A fresh agent now and then, so its in-memory session store does not grow.
  if (index % 100 === 0) {
    agent = makeAgent();
    void sink;
  }
  model.reset();
  if (process.argv.includes("--bare")) await bareLoop(model, 10);
  else await (streaming ? drain(agent.stream(INPUT)) : agent.run(INPUT));
}

async function heapProfile(): Promise<void> {
  for (let index = 0; index < 3000; index++) await once(index);
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const runs = 5000;
  for (let index = 0; index < runs; index++) await once(index);
  const { profile } = await session.post("HeapProfiler.stopSampling");
  const bytes = new Map<string, number>();
  let total = 0;
  type Node = (typeof profile)["head"];
  const walk = (node: Node) => {
    total += node.selfSize;
    const frame = node.callFrame;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").at(-1)}:${frame.lineNumber}`;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  console.log(`${(total / runs).toFixed(0)} bytes allocated per run`);
  for (const [key, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${(size / runs).toFixed(0).padStart(8)}  ${key}`);
}

if (process.argv.includes("--heap")) await heapProfile();
else {
  const until = Date.now() + 4000;
  let runs = 0;
  while (Date.now() < until) await once(runs++);
  console.log(`${runs} runs, ${((4000 * 1000) / runs).toFixed(1)} µs/run`);
}
