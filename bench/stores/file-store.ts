/**
 * bench/stores/file-store: what one write to the file store costs as records pile up — a
 * `set` of a 1.2 KB value (the size of a harness hook's run record) and an `increment`, with
 * 1,000, 10,000 and 30,000 such records kept (a harness's hook records one per tool call,
 * for 30 days). A write replaces its key's file alone, so the figures should stay flat.
 * Then the slowest write of a sweep pass over the folder (each reads a batch of files), and
 * the first operation on a folder of the earlier layout (one state.json) of that size,
 * which converts it.
 *
 *   npm run build && npx tsx bench/stores/file-store.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { hookwise } from "../shared/hookwise.js";
import { format, machine } from "../shared/measure.js";

const { FileStore } = hookwise;
const SIZES = [1_000, 10_000, 30_000];
const SAMPLES = 51;
const DAY = 86_400_000;

const record = (index: number) => ({ format: 3, index, text: "x".repeat(1_150) });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A state.json as versions before one file per value kept `size` records. */
function legacyFolder(size: number): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-file-store-legacy-"));
  const kv: Record<string, [string, number]> = {};
  const expiresAt = Date.now() + 30 * DAY;
  for (let index = 0; index < size; index++)
    kv[`hookwise:runs:session-${index % 200}:${String(index).padStart(15, "0")}:${index}`] = [
      JSON.stringify(record(index)),
      expiresAt,
    ];
  writeFileSync(join(dir, "state.json"), JSON.stringify({ version: 1, kv, hits: {} }));
  return dir;
}

async function main(): Promise<void> {
  console.log(`${machine()}, load ${loadavg()[0]!.toFixed(1)}`);
  console.log(
    "records kept   set 1.2 KB (ms)   increment (ms)   set sweeping a batch (ms, slowest)   opening a state.json (ms)",
  );
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-file-store-"));
    const legacy = legacyFolder(size);
    try {
      const store = new FileStore({ path: dir });
      for (let index = 0; index < size; index++)
        await store.set(
          `hookwise:runs:session-${index % 200}:${String(index).padStart(15, "0")}:${index}`,
          record(index),
          { ttlMs: 30 * DAY },
        );
      const sets: number[] = [];
      const increments: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample++) {
        let started = performance.now();
        await store.set(`hookwise:runs:new:${sample}`, record(sample), { ttlMs: 30 * DAY });
        sets.push(performance.now() - started);
        started = performance.now();
        await store.increment("fires");
        increments.push(performance.now() - started);
      }
      // A pass over the folder, due: each write sweeps a batch until it is through (a store
      // opened anew, as by the next process, which has not seen the last pass).
      rmSync(join(dir, "swept"));
      const sweeper = new FileStore({ path: dir });
      const passDone = () => (JSON.parse(readFileSync(join(dir, "swept"), "utf8")) as unknown[])[1] === null;
      let sweeping = 0;
      do {
        const started = performance.now();
        await sweeper.set("fires", 1);
        sweeping = Math.max(sweeping, performance.now() - started);
      } while (!passDone());
      const started = performance.now();
      await new FileStore({ path: legacy }).get("fires");
      const converting = performance.now() - started;
      console.log(
        `${String(size).padStart(12)}   ${format(median(sets), 3, 15)}   ${format(median(increments), 3, 14)}   ${format(sweeping, 1, 34)}   ${format(converting, 0, 25)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(legacy, { recursive: true, force: true });
    }
  }
}

await main();
