/**
 * Reads a scripted model's script from a YAML or JSON(L) file (`scripted:./script.yaml`).
 * Every problem is a ScriptFileError at its line and column in the file, with the nearest
 * valid key: the model reads it when it is built, and `validate` reads it the same way.
 */
import { readFileSync } from "node:fs";
import { yaml } from "../deps/yaml.js";
import { MAX_NESTING_DEPTH, tooDeepAt } from "../deps/yaml-nesting-depth.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { nearest } from "../errors/nearest.js";
import { ScriptFileError } from "./script-file-error.js";
import type { ScriptEntry } from "./scripted-model.js";

const ENTRY_KEYS = new Set([
  "text",
  "text_deltas",
  "textDeltas",
  "reasoning",
  "toolCalls",
  "tool_calls",
  "error",
  "usage",
  "delayMs",
  "delay_ms",
]);
const TOOL_CALL_KEYS = new Set(["name", "args", "id"]);

type ScriptPath = readonly (string | number)[];
/** Where a path of the entries' list is in the file (`key`: the key itself, not its value). */
type Locate = (path: ScriptPath, key?: boolean) => { line: number; column: number };
type Fail = (
  path: ScriptPath,
  problem: string,
  extra?: { expected?: string; suggestion?: string; key?: boolean },
) => never;

interface ParsedScript {
  data: unknown;
  /** The path of the entries' list (`["script"]` in a `script:` mapping). */
  locate: Locate;
}

interface NodeLike {
  range?: [number, number, number];
  items?: { key?: { value?: unknown; range?: [number, number, number] }; value?: unknown }[] | unknown[];
}

function parseYaml(text: string, file: string): ParsedScript {
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const before = text.slice(0, deep);
    throw new ScriptFileError({
      file,
      line: before.split("\n").length,
      column: deep - before.lastIndexOf("\n"),
      path: [],
      problem: `nested more than ${MAX_NESTING_DEPTH} levels deep; flatten the structure`,
    });
  }
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const first = document.errors[0];
  if (first) {
    const offset = first.pos[0];
    const { line, col } = lineCounter.linePos(offset);
    throw new ScriptFileError({
      file,
      line,
      column: col,
      path: [],
      problem: `YAML syntax: ${first.message.split("\n")[0]}`,
    });
  }
  const data = document.toJS() as unknown;
  const wrapped = !Array.isArray(data) && typeof data === "object" && data !== null;
  const locate: Locate = (path, key = false) => {
    let node = document.contents as NodeLike | null | undefined;
    let offset = node?.range?.[0] ?? 0;
    const full = wrapped ? ["script", ...path] : path;
    full.forEach((segment, depth) => {
      const items = node?.items;
      if (!items) return;
      if (typeof segment === "number") {
        node = items[segment] as NodeLike | undefined;
        offset = node?.range?.[0] ?? offset;
        return;
      }
      const pair = (
        items as { key?: { value?: unknown; range?: [number, number, number] }; value?: unknown }[]
      ).find((item) => item?.key?.value === segment);
      if (!pair) return;
      const last = depth === full.length - 1;
      node = pair.value as NodeLike | undefined;
      offset = (last && key ? pair.key?.range?.[0] : node?.range?.[0]) ?? pair.key?.range?.[0] ?? offset;
    });
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return { data, locate };
}

function parseJsonLines(text: string, file: string): ParsedScript {
  const lines = text.split("\n");
  const numbers: number[] = [];
  const data = lines.flatMap((line, index) => {
    if (!line.trim()) return [];
    numbers.push(index + 1);
    try {
      return [JSON.parse(line) as unknown];
    } catch (error) {
      throw new ScriptFileError({
        file,
        line: index + 1,
        column: 1,
        path: [numbers.length - 1],
        problem: `not JSON: ${(error as Error).message}`,
        expected: "one JSON object per line",
      });
    }
  });
  const locate: Locate = (path, key = false) => {
    const entry = typeof path[0] === "number" ? path[0] : 0;
    const line = numbers[entry] ?? 1;
    const last = path[path.length - 1];
    const at = typeof last === "string" && key ? lines[line - 1]!.indexOf(JSON.stringify(last)) : -1;
    return { line, column: at >= 0 ? at + 1 : 1 };
  };
  return { data, locate };
}

export function loadScript(path: string): ScriptEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new HookwiseError(`scripted model: cannot read script file ${path}`);
  }
  const { data, locate } = path.endsWith(".jsonl") ? parseJsonLines(text, path) : parseYaml(text, path);
  const fail: Fail = (at, problem, extra = {}) => {
    const { key, ...rest } = extra;
    throw new ScriptFileError({ file: path, ...locate(at, key), path: at, problem, ...rest });
  };
  const entries = Array.isArray(data) ? data : (data as { script?: unknown })?.script;
  if (!Array.isArray(entries)) {
    fail([], "a script must hold a list of entries", {
      expected: "- text: …, - tool_calls: […], - error: … (or script: [ … ])",
    });
  }
  return entries.map((entry: unknown, index: number) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      fail([index], `entry ${index + 1} must be a mapping`, { expected: "e.g. - text: hello" });
    }
    for (const key of Object.keys(entry)) {
      if (!ENTRY_KEYS.has(key)) {
        fail([index, key], `entry ${index + 1} has unknown key "${key}"`, {
          expected: `one of ${[...ENTRY_KEYS].join(", ")}`,
          ...suggest(key, ENTRY_KEYS),
          key: true,
        });
      }
    }
    const value = entry as ScriptEntry & { delay_ms?: number };
    checkToolCalls(
      fail,
      index,
      value.toolCalls === undefined ? "tool_calls" : "toolCalls",
      value.toolCalls ?? value.tool_calls,
    );
    checkTextDeltas(fail, index, value);
    return value.delay_ms === undefined ? value : { ...value, delayMs: value.delay_ms };
  });
}

/** The spellings a YAML script shows: a misspelt `toolcalls` is pointed at `tool_calls`. */
const SNAKE: Readonly<Record<string, string>> = {
  toolCalls: "tool_calls",
  textDeltas: "text_deltas",
  delayMs: "delay_ms",
};

function suggest(key: string, keys: ReadonlySet<string>): { suggestion?: string } {
  const near = nearest(key, keys);
  return near ? { suggestion: SNAKE[near] ?? near } : {};
}

/** `text_deltas`: a list of strings, and not beside `text` (which would the stream send?). */
function checkTextDeltas(fail: Fail, index: number, entry: ScriptEntry): void {
  const field = entry.textDeltas === undefined ? "text_deltas" : "textDeltas";
  const deltas = entry.textDeltas ?? entry.text_deltas;
  if (deltas === undefined) return;
  if (!Array.isArray(deltas) || !deltas.every((delta) => typeof delta === "string"))
    fail([index, field], `entry ${index + 1}: text_deltas must be a list of strings`);
  if (entry.text !== undefined)
    fail(
      [index, "text"],
      `entry ${index + 1}: give text or text_deltas, not both (text_deltas is the text in pieces)`,
    );
}

/** A misspelt tool-call key (`arguments`, `tool`) would otherwise call a tool silently wrong. */
function checkToolCalls(fail: Fail, index: number, field: string, calls: unknown): void {
  if (calls === undefined) return;
  if (!Array.isArray(calls)) fail([index, field], `entry ${index + 1}: tool_calls must be a list`);
  calls.forEach((call: unknown, position) => {
    const at = `entry ${index + 1} tool call ${position + 1}`;
    if (typeof call !== "object" || call === null || typeof (call as { name?: unknown }).name !== "string") {
      fail([index, field, position], `${at} must be a mapping with a string name`, {
        expected: "e.g. { name: add, args: { a: 1 } }",
      });
    }
    for (const key of Object.keys(call)) {
      if (!TOOL_CALL_KEYS.has(key)) {
        fail([index, field, position, key], `${at} has unknown key "${key}"`, {
          expected: "one of name, args, id",
          ...suggest(key, TOOL_CALL_KEYS),
          key: true,
        });
      }
    }
  });
}
