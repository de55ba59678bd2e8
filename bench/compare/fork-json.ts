/**
 * Cases whose processes report more than one timing (bench/shared/forks.ts takes one per
 * process): each prints one line `@@result {json}`. Forks alternate over the cases as
 * there; the caller takes medians over the samples.
 */
import { spawnSync } from "node:child_process";

const MARK = "@@result ";

/** Prints a case's result in a fork. */
export function report(result: object): void {
  console.log(`${MARK}${JSON.stringify(result)}`);
}

/** Runs each case in `forks` processes of `script` (with `nodeFlags`); returns every sample. */
export function measureJsonForked<T>(
  script: string,
  names: readonly string[],
  forks: number,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): Record<string, T[]> {
  const samples = new Map<string, T[]>(names.map((name) => [name, []]));
  for (let fork = 0; fork < forks; fork++)
    for (const name of names) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, ...nodeFlags, script, `--case=${name}`, ...args],
        { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
      );
      const line = child.stdout.split("\n").find((text) => text.startsWith(MARK));
      if (child.status !== 0 || line === undefined)
        throw new Error(`bench: case "${name}" failed in its fork (exit ${child.status})`);
      samples.get(name)!.push(JSON.parse(line.slice(MARK.length)) as T);
    }
  return Object.fromEntries(samples);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
