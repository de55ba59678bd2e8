/**
 * The stores' table: hookwise `run()` (10 steps, no hooks) on SQLite, Redis and a store of
 * one's own, recorded or not. Each row is a `versus` case: the store's run timed in turns
 * with its reference in one process (the in-memory run, or the unrecorded run on the same
 * store), so the ratio holds on a busy machine. Each ratio is printed beside its target; a
 * ratio over it is marked, and fails the bench once the table is printed (`checkStoreRows`),
 * as the checks of every case (counts, committed sessions, one record per recorded run) do.
 */
import { caseName, type PairSample } from "./case.js";
import { ANY_CONTENDERS, STORE_CONTENDER_NAMES, type StoreContenderName } from "./contender-list.js";
import { measureJsonForked, median } from "./fork-json.js";
import { BenchCheckError } from "./script.js";

/** The most each ratio may be; a floor has none (it is what the store itself costs). */
const TARGETS: Partial<Record<StoreContenderName, number>> = {
  hookwiseSqlite: 2,
  hookwiseSqliteRecorded: 1.3,
  hookwiseRedis: 3,
  hookwiseRedisRecorded: 1.3,
  hookwiseOwnStore: 2,
  hookwiseOwnStoreRecorded: 1.3,
};

export interface StoreRow {
  contender: StoreContenderName;
  medianUs: number;
  fastestUs: number;
  /** The median over processes of (this run ÷ its reference), each timed in turns. */
  ratio: number;
  /** Undefined for a floor. */
  target: number | undefined;
}

/** The floor under each store row: its ratio is to the same kind of reference as the row's. */
const FLOORS: Partial<Record<StoreContenderName, StoreContenderName>> = {
  hookwiseSqlite: "sqliteFloor",
  hookwiseRedis: "redisFloor",
  hookwiseSqliteRecorded: "sqliteFloorRecorded",
  hookwiseRedisRecorded: "redisFloorRecorded",
};

/** Measures every store row in `forks` processes each (its cases alternate, as the others' do). */
export function measureStoreRows(script: string, forks: number, args: readonly string[]): StoreRow[] {
  const names = STORE_CONTENDER_NAMES.map((contender) =>
    caseName({ kind: "versus", contender, steps: 10, perSeam: 0, mode: "sync" }),
  );
  const samples = measureJsonForked<PairSample>(script, names, forks, args);
  return STORE_CONTENDER_NAMES.map((contender, index) => {
    const list = samples[names[index]!]!;
    return {
      contender,
      medianUs: median(list.map((sample) => sample.second.medianUs)),
      fastestUs: Math.min(...list.map((sample) => sample.second.minUs)),
      ratio: median(list.map((sample) => sample.second.medianUs / sample.first.medianUs)),
      target: TARGETS[contender],
    };
  });
}

const REFERENCE_NAMES: Record<string, string> = {
  hookwiseRun: "in-memory run()",
  sqliteFloor: "SQLite floor",
  redisFloor: "Redis floor",
  hookwiseSqlite: "SQLite unrecorded",
  hookwiseRedis: "Redis unrecorded",
  hookwiseOwnStore: "own store unrecorded",
};

export function printStoreRows(rows: readonly StoreRow[]): void {
  const line = (label: string, numbers: readonly string[], what: string, target: string) =>
    console.log(
      `${label.padEnd(30)}${numbers.map((value) => value.padStart(10)).join("")}  ${what.padEnd(22)}${target}`,
    );
  console.log(
    "\nhookwise run() on a store, 10 steps, no hooks (each row timed in turns with what it is ÷ by)",
  );
  line("", ["µs/run", "fastest", "ratio"], "÷ what", "target");
  for (const row of rows) {
    const entry = ANY_CONTENDERS[row.contender];
    line(
      `  ${entry.heading.join(", ")}`,
      [row.medianUs.toFixed(1), row.fastestUs.toFixed(1), `${row.ratio.toFixed(2)}×`],
      REFERENCE_NAMES[entry.reference ?? ""] ?? "",
      row.target === undefined ? "" : `≤ ${row.target}×${row.ratio > row.target ? "  (over)" : ""}`,
    );
  }
  // A row and its floor are each ÷ a like reference (the in-memory run; the unrecorded row and
  // the unrecorded floor), so their quotient is what hookwise adds over what the store costs.
  for (const row of rows) {
    const floor = rows.find((candidate) => candidate.contender === FLOORS[row.contender]);
    if (!floor) continue;
    console.log(
      `  ${ANY_CONTENDERS[row.contender].heading.join(", ")} ÷ its floor: ${(row.ratio / floor.ratio).toFixed(2)}× (hookwise's own cost over the store's)`,
    );
  }
}

/** Fails the bench (after the table is printed) when a ratio is over its target, naming each. */
export function checkStoreRows(rows: readonly StoreRow[]): void {
  const over = rows.filter((row) => row.target !== undefined && row.ratio > row.target);
  if (over.length === 0) return;
  throw new BenchCheckError(
    `bench/compare: over target: ${over
      .map(
        (row) =>
          `${ANY_CONTENDERS[row.contender].heading.join(", ")} ${row.ratio.toFixed(2)}× (≤ ${row.target}×)`,
      )
      .join("; ")}`,
  );
}
