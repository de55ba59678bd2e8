/**
 * Each case measured in processes of its own, as JMH forks a JVM per benchmark: cases that
 * share a process share the JIT's type feedback, so the code paths of one configuration
 * (hooks, streaming) slow another's, and which way the JIT settles varies from process to
 * process. Forks of the cases alternate (A B C, A B C, …) so a burst of machine load hits
 * them alike; per case the median over its forks is reported (and the fastest batch seen).
 *
 * A bench script calls `forkedCase(cases, options)` first: in a fork (`--case=NAME` on its
 * command line) it measures that case, prints the timing and exits; otherwise it returns
 * and the script goes on to call `measureForked`.
 */
import { spawnSync } from "node:child_process";
import { type Case, type MeasureOptions, measureAll, type Timing } from "./measure.js";

const MARK = "@@timing ";

/** Runs one case when this process is a fork; returns false otherwise (the parent). */
export async function forkedCase(
  cases: Record<string, { run: Case; setup?: () => void | Promise<void> }>,
  options: Omit<MeasureOptions, "setup">,
): Promise<boolean> {
  const name = process.argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
  if (name === undefined) return false;
  const chosen = cases[name];
  if (!chosen) throw new Error(`bench: no case "${name}" (cases: ${Object.keys(cases).join(", ")})`);
  const timing = await measureAll({ [name]: chosen.run }, { ...options, setup: chosen.setup });
  console.log(`${MARK}${JSON.stringify(timing[name])}`);
  return true;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Measures each case in `forks` processes of `script` (extra `args` passed to each). */
export function measureForked<K extends string>(
  script: string,
  names: readonly K[],
  forks: number,
  args: readonly string[] = [],
): Record<K, Timing> {
  const samples = new Map<K, Timing[]>(names.map((name) => [name, []]));
  for (let fork = 0; fork < forks; fork++) {
    for (const name of names) {
      const child = spawnSync(process.execPath, [...process.execArgv, script, `--case=${name}`, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
      const line = child.stdout.split("\n").find((text) => text.startsWith(MARK));
      if (child.status !== 0 || line === undefined)
        throw new Error(`bench: case "${name}" failed in its fork (exit ${child.status})`);
      samples.get(name)!.push(JSON.parse(line.slice(MARK.length)) as Timing);
    }
  }
  const result = {} as Record<K, Timing>;
  for (const name of names) {
    const timings = samples.get(name)!;
    result[name] = {
      medianUs: median(timings.map((timing) => timing.medianUs)),
      meanUs: timings.reduce((sum, timing) => sum + timing.meanUs, 0) / timings.length,
      minUs: Math.min(...timings.map((timing) => timing.minUs)),
    };
  }
  return result;
}
