/**
 * What a parked run holds: parks `N` (default 1,000) hookwise run()s at model call 6 (as
 * bench/scale's (e) does), prints heap per run after forced GC and, with `--snapshot=DIR`,
 * writes heap snapshots before and while parked (compare them in DevTools or with
 * bench/scale/heap-diff.ts).
 *
 *   npm run build && node --expose-gc --import tsx bench/scale/park-heap.ts [--snapshot=/tmp/x] [--runs=N]
 *     [--contender=plain] [--hooks=50] [--mode=async]
 */
import { writeHeapSnapshot } from "node:v8";
import { PARK_AT_STEP } from "../compare/case.js";
import type { CreateContender } from "../compare/contender.js";
import { Gate, Script } from "../compare/script.js";
import { seamHooks } from "../compare/seam-hooks.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const runs = Number(arg("runs") ?? 1000);
const dir = arg("snapshot");

const gate = new Gate(PARK_AT_STEP);
const script = new Script(10, gate);
// Another contender (`--contender=plain`, the hand-written loop) shows the floor.
const { create } = (await import(`../compare/contenders/${arg("contender") ?? "hookwise-run"}.js`)) as {
  create: CreateContender;
};
const contender = await create({
  script,
  hooks: seamHooks(Number(arg("hooks") ?? 0), arg("mode") === "async" ? "async" : "sync"),
});
for (let index = 0; index < 200; index++) await contender.run();
contender.setup?.();
gc();
gc();
if (dir) writeHeapSnapshot(`${dir}/before.heapsnapshot`);
gc();
const before = process.memoryUsage().heapUsed;
gate.arm();
const parked = Array.from({ length: runs }, () => contender.run());
await gate.arrivals(runs);
gc();
gc();
const after = process.memoryUsage().heapUsed;
console.log(`${((after - before) / runs / 1024).toFixed(2)} KB per parked run (${runs} runs)`);
if (dir) writeHeapSnapshot(`${dir}/parked.heapsnapshot`);
gate.release();
await Promise.all(parked);
