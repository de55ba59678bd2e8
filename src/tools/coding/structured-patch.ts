/**
 * The `structuredPatch` Claude Code's Write, Edit and MultiEdit report to hooks: the hunks
 * of a unified diff between two texts, each `{ oldStart, oldLines, newStart, newLines,
 * lines }` with lines prefixed by " ", "-" or "+". One hunk spans the changed region
 * (between the longest common prefix and suffix of lines) with three lines of context.
 */

export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

const CONTEXT = 3;

export function structuredPatch(before: string, after: string): PatchHunk[] {
  if (before === after) return [];
  const old = before === "" ? [] : before.split("\n");
  const now = after === "" ? [] : after.split("\n");
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail++;
  const from = Math.max(0, head - CONTEXT);
  const oldEnd = Math.min(old.length, old.length - tail + CONTEXT);
  const newEnd = Math.min(now.length, now.length - tail + CONTEXT);
  const lines = [
    ...old.slice(from, head).map((line) => ` ${line}`),
    ...old.slice(head, old.length - tail).map((line) => `-${line}`),
    ...now.slice(head, now.length - tail).map((line) => `+${line}`),
    ...old.slice(old.length - tail, oldEnd).map((line) => ` ${line}`),
  ];
  const oldLines = oldEnd - from;
  const newLines = newEnd - from;
  return [
    {
      oldStart: oldLines === 0 ? from : from + 1,
      oldLines,
      newStart: newLines === 0 ? from : from + 1,
      newLines,
      lines,
    },
  ];
}
