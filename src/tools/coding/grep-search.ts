/**
 * The search behind the Grep tool, in JavaScript (no ripgrep needed, and it walks only
 * inside the root): a JavaScript regular expression over each file's lines (or the whole
 * text with `multiline`), files filtered by a glob and a type, binary files and files over
 * 10 MB skipped. What it finds is reported as ripgrep prints it: `path:line:text` for
 * matching lines, `path-line-text` for context lines, `--` between groups.
 */
import { readFile, stat } from "node:fs/promises";
import { basename, relative } from "node:path";
import { picomatch } from "../../deps/picomatch.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { FILE_TYPES } from "./file-types.js";
import { walkFiles } from "./walk-files.js";

const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface GrepQuery {
  pattern: string;
  /** A file or a folder, real and inside the root. */
  target: string;
  glob?: string | undefined;
  type?: string | undefined;
  ignoreCase: boolean;
  multiline: boolean;
}

export interface FileHits {
  file: string;
  lines: string[];
  /** 0-based indexes of the lines that match. */
  matched: number[];
}

function compile(query: GrepQuery): RegExp {
  try {
    return new RegExp(query.pattern, `g${query.ignoreCase ? "i" : ""}${query.multiline ? "ms" : ""}`);
  } catch (error) {
    throw new HookwiseError(
      `Grep pattern ${JSON.stringify(query.pattern)} is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

function fileFilter(query: GrepQuery, folder: string): (file: string) => boolean {
  const tests: ((file: string) => boolean)[] = [];
  if (query.glob) {
    const match = picomatch(query.glob, { dot: true });
    // As ripgrep: a glob without a slash is matched against the file's name.
    tests.push(
      query.glob.includes("/") ? (file) => match(relative(folder, file)) : (file) => match(basename(file)),
    );
  }
  if (query.type) {
    const globs = FILE_TYPES[query.type];
    if (!globs)
      throw new HookwiseError(
        `Grep type "${query.type}" is not known; known types: ${Object.keys(FILE_TYPES).join(", ")}`,
      );
    const match = picomatch([...globs], { dot: true });
    tests.push((file) => match(basename(file)));
  }
  return (file) => tests.every((test) => test(file));
}

function matchedLines(text: string, lines: string[], regex: RegExp, multiline: boolean): number[] {
  if (!multiline) {
    const hits: number[] = [];
    lines.forEach((line, index) => {
      regex.lastIndex = 0;
      if (regex.test(line)) hits.push(index);
    });
    return hits;
  }
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const lineAt = (position: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const hits = new Set<number>();
  for (const match of text.matchAll(regex)) {
    const first = lineAt(match.index);
    const last = lineAt(match.index + Math.max(0, match[0].length - 1));
    for (let line = first; line <= last; line++) hits.add(line);
  }
  return [...hits].sort((a, b) => a - b);
}

export async function grepSearch(query: GrepQuery): Promise<FileHits[]> {
  const regex = compile(query);
  const isFile = (await stat(query.target)).isFile();
  const keep = fileFilter(query, query.target);
  const files: string[] = [];
  if (isFile) files.push(query.target);
  else for await (const file of walkFiles(query.target)) if (keep(file)) files.push(file);
  const found: FileHits[] = [];
  for (const file of files) {
    if ((await stat(file)).size > MAX_FILE_BYTES) continue;
    const data = await readFile(file);
    if (data.subarray(0, 8192).includes(0)) continue;
    const text = data.toString("utf8");
    const lines = text.replace(/\n$/, "").split("\n");
    const matched = matchedLines(text, lines, regex, query.multiline);
    if (matched.length) found.push({ file, lines, matched });
  }
  return found;
}

/** Matching lines with their context, as ripgrep prints them. */
export function contentLines(
  hits: FileHits,
  options: { before: number; after: number; numbers: boolean },
): string[] {
  const shown = new Map<number, boolean>();
  for (const index of hits.matched) {
    for (
      let line = Math.max(0, index - options.before);
      line <= Math.min(hits.lines.length - 1, index + options.after);
      line++
    )
      if (!shown.has(line)) shown.set(line, false);
  }
  for (const index of hits.matched) shown.set(index, true);
  const order = [...shown.keys()].sort((a, b) => a - b);
  const out: string[] = [];
  let previous = -2;
  for (const line of order) {
    if ((options.before || options.after) && previous >= 0 && line > previous + 1) out.push("--");
    const separator = shown.get(line) ? ":" : "-";
    const number = options.numbers ? `${line + 1}${separator}` : "";
    out.push(`${hits.file}${separator}${number}${hits.lines[line]}`);
    previous = line;
  }
  return out;
}
