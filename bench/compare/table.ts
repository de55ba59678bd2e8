/** The comparison's one table: a column per contender, a row per measurement, ratio rows under it. */
import { CONTENDERS, type ContenderName } from "./contender-list.js";

export interface Row {
  label: string;
  unit: string;
  /** undefined: not measured (said under the table). */
  values: Record<ContenderName, number | undefined>;
  /** The fastest batch of each case, printed under the medians. */
  fastest?: Record<ContenderName, number | undefined>;
  /** Print "× plain loop" and "× generateText" rows under this one. */
  ratios?: boolean;
}

const LABEL = 44;
const CELL = 13;

function number(value: number | undefined, suffix = ""): string {
  if (value === undefined || !Number.isFinite(value)) return "-";
  if (value >= 100) return `${Math.round(value).toLocaleString("en-US")}${suffix}`;
  if (value >= 10) return `${value.toFixed(1)}${suffix}`;
  return `${value.toFixed(2)}${suffix}`;
}

export function printTable(columns: readonly ContenderName[], rows: readonly Row[]): void {
  const line = (label: string, cells: readonly string[]) =>
    console.log(label.padEnd(LABEL) + cells.map((cell) => cell.padStart(CELL)).join(""));
  const ratio = (row: Row, reference: ContenderName) => {
    const base = row.values[reference];
    return columns.map((column) => {
      const value = row.values[column];
      return number(value === undefined || base === undefined ? undefined : value / base, "×");
    });
  };
  console.log("");
  line(
    "",
    columns.map((column) => CONTENDERS[column].heading[0]),
  );
  line(
    "",
    columns.map((column) => CONTENDERS[column].heading[1]),
  );
  for (const row of rows) {
    line(
      `${row.label} (${row.unit})`,
      columns.map((column) => number(row.values[column])),
    );
    const fastest = row.fastest;
    if (fastest)
      line(
        "    fastest batch",
        columns.map((column) => number(fastest[column])),
      );
    if (!row.ratios) continue;
    line("    × plain loop", ratio(row, "plain"));
    line("    × generateText", ratio(row, "generateText"));
  }
}
