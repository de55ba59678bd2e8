/** Reads a scripted model's script from a YAML or JSON(L) file (`scripted:./script.yaml`). */
import { readFileSync } from "node:fs";
import { yaml } from "../deps/yaml.js";
import { HookwiseError } from "../errors/hookwise-error.js";
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

export function loadScript(path: string): ScriptEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new HookwiseError(`scripted model: cannot read script file ${path}`);
  }
  const documents = path.endsWith(".jsonl")
    ? text
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as unknown)
    : (yaml().parse(text) as unknown);
  const entries = Array.isArray(documents) ? documents : (documents as { script?: unknown })?.script;
  if (!Array.isArray(entries)) {
    throw new HookwiseError(`scripted model: ${path} must hold a list of entries (text, tool_calls, error)`);
  }
  return entries.map((entry, index) => {
    if (typeof entry !== "object" || entry === null) {
      throw new HookwiseError(`scripted model: ${path} entry ${index + 1} must be a mapping`);
    }
    for (const key of Object.keys(entry)) {
      if (!ENTRY_KEYS.has(key)) {
        throw new HookwiseError(
          `scripted model: ${path} entry ${index + 1} has unknown key "${key}" (expected one of ${[...ENTRY_KEYS].join(", ")})`,
        );
      }
    }
    const value = entry as ScriptEntry & { delay_ms?: number };
    checkToolCalls(path, index, value.toolCalls ?? value.tool_calls);
    checkTextDeltas(path, index, value);
    return value.delay_ms === undefined ? value : { ...value, delayMs: value.delay_ms };
  });
}

/** `text_deltas`: a list of strings, and not beside `text` (which would the stream send?). */
function checkTextDeltas(path: string, index: number, entry: ScriptEntry): void {
  const deltas = entry.textDeltas ?? entry.text_deltas;
  if (deltas === undefined) return;
  const where = `scripted model: ${path} entry ${index + 1}`;
  if (!Array.isArray(deltas) || !deltas.every((delta) => typeof delta === "string"))
    throw new HookwiseError(`${where}: text_deltas must be a list of strings`);
  if (entry.text !== undefined)
    throw new HookwiseError(
      `${where}: give text or text_deltas, not both (text_deltas is the text in pieces)`,
    );
}

/** A misspelt tool-call key (`arguments`, `tool`) would otherwise call a tool silently wrong. */
function checkToolCalls(path: string, index: number, calls: unknown): void {
  if (calls === undefined) return;
  const where = `scripted model: ${path} entry ${index + 1}`;
  if (!Array.isArray(calls)) throw new HookwiseError(`${where}: tool_calls must be a list`);
  calls.forEach((call: unknown, position) => {
    const at = `${where} tool call ${position + 1}`;
    if (typeof call !== "object" || call === null || typeof (call as { name?: unknown }).name !== "string") {
      throw new HookwiseError(
        `${at} must be a mapping with a string name (e.g. { name: add, args: { a: 1 } })`,
      );
    }
    for (const key of Object.keys(call)) {
      if (!TOOL_CALL_KEYS.has(key)) {
        throw new HookwiseError(`${at} has unknown key "${key}" (expected one of name, args, id)`);
      }
    }
  });
}
