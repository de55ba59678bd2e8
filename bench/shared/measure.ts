/**
 * A small timing harness. Cases are measured **interleaved**: every round times one batch
 * of each case in turn, so a burst of load from other processes hits all cases alike and
 * their ratios stay meaningful. Per case it reports the median batch (robust to a GC pause
 * or a busy moment) and the fastest one.
 */

export interface Timing {
  /** Median per call over the batches, in microseconds. */
  medianUs: number;
  /** Mean per call over the batches (garbage collection amortized in), in microseconds. */
  meanUs: number;
  /** The fastest batch's per-call time, in microseconds. */
  minUs: number;
}

export interface MeasureOptions {
  /** Untimed calls of each case first (JIT warm-up). */
  warmup: number;
  /** Timed rounds; each times one batch of every case. */
  rounds: number;
  /** Calls per batch. */
  batch: number;
  /** Runs before each round, untimed (e.g. fresh agents, so in-memory stores do not grow). */
  setup?: () => void | Promise<void>;
  /**
   * What a batch is timed by: the wall clock (default), or the CPU time the process used
   * (user + system, all its threads), which leaves out the time it waited for a core on a
   * busy machine.
   */
  clock?: "wall" | "cpu";
}

export type Case = () => Promise<unknown> | unknown;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timeBatch(fn: Case, batch: number, clock: MeasureOptions["clock"]): Promise<number> {
  if (clock === "cpu") {
    const start = process.cpuUsage();
    for (let index = 0; index < batch; index++) await fn();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / batch;
  }
  const start = process.hrtime.bigint();
  for (let index = 0; index < batch; index++) await fn();
  return Number(process.hrtime.bigint() - start) / batch / 1000;
}

export async function measureAll<K extends string>(
  cases: Record<K, Case>,
  options: MeasureOptions,
): Promise<Record<K, Timing>> {
  const names = Object.keys(cases) as K[];
  await options.setup?.();
  for (const name of names) for (let index = 0; index < options.warmup; index++) await cases[name]();
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    await options.setup?.();
    // Rotate the order so no case always runs right after the same neighbour.
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length]!;
      samples.get(name)!.push(await timeBatch(cases[name], options.batch, options.clock));
    }
  }
  const result = {} as Record<K, Timing>;
  for (const name of names) {
    const values = samples.get(name)!;
    result[name] = {
      medianUs: median(values),
      meanUs: values.reduce((sum, value) => sum + value, 0) / values.length,
      minUs: Math.min(...values),
    };
  }
  return result;
}

/** Right-aligned fixed-width number for tables. */
export function format(value: number, digits = 1, width = 9): string {
  return value.toFixed(digits).padStart(width);
}

export function verdict(ok: boolean): string {
  return ok ? "met" : "MISSED";
}

/** The machine, so figures can be compared across runs. */
export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}`;
}
