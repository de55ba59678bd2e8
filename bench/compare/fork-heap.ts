/**
 * Heap cases in processes of their own, with `--expose-gc` (timing cases go through
 * bench/shared/forks.ts, whose processes run without it). Forks alternate over the cases as
 * there; per case the median over its forks is kept (and the fewest runs any fork parked).
 */
import { spawnSync } from "node:child_process";
import { HEAP_MARK, type HeapSample } from "./case.js";

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function measureHeapForked(
  script: string,
  names: readonly string[],
  forks: number,
  args: readonly string[] = [],
): Record<string, HeapSample> {
  const samples = new Map<string, HeapSample[]>(names.map((name) => [name, []]));
  for (let fork = 0; fork < forks; fork++)
    for (const name of names) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, "--expose-gc", script, `--case=${name}`, ...args],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
      );
      const line = child.stdout.split("\n").find((text) => text.startsWith(HEAP_MARK));
      if (child.status !== 0 || line === undefined)
        throw new Error(`bench: case "${name}" failed in its fork (exit ${child.status})`);
      samples.get(name)!.push(JSON.parse(line.slice(HEAP_MARK.length)) as HeapSample);
    }
  return Object.fromEntries(
    names.map((name) => {
      const taken = samples.get(name)!;
      return [
        name,
        {
          bytesPerRun: median(taken.map((sample) => sample.bytesPerRun)),
          parked: Math.min(...taken.map((sample) => sample.parked)),
        },
      ];
    }),
  );
}
