/**
 * Where a validation problem of `@readme/openapi-parser` is. Its messages carry a code
 * frame of the document as it validated it (pretty-printed JSON, two-space indent):
 *
 *     > 3 |   "info": {
 *         |           ^ version is missing here!
 *
 * The frame's line and caret give an offset in that JSON; the node there gives a path,
 * which the caller maps back to the YAML the user wrote. No frame, no path.
 */
import { yaml } from "../../../deps/yaml.js";
import { type DocumentPath, pathAtOffset } from "./yaml-positions.js";

export function validationProblemPath(message: string, validated: unknown): DocumentPath | undefined {
  const lines = message.split("\n");
  const marked = lines.findIndex((line) => /^>\s*\d+\s\|/.test(line));
  if (marked < 0) return undefined;
  const lineNumber = Number(/^>\s*(\d+)/.exec(lines[marked]!)![1]);
  const caretLine = lines[marked + 1] ?? "";
  const pipe = caretLine.indexOf("|");
  const caret = caretLine.indexOf("^");
  const column = pipe >= 0 && caret > pipe ? caret - pipe - 2 : 0;
  let json: string;
  try {
    json = JSON.stringify(validated, null, 2);
  } catch {
    return undefined;
  }
  const starts = [0];
  for (let index = 0; index < json.length; index++) if (json[index] === "\n") starts.push(index + 1);
  const start = starts[lineNumber - 1];
  if (start === undefined) return undefined;
  return pathAtOffset(yaml().parseDocument(json), start + Math.max(0, column));
}

/**
 * The problem without its code frame: `ENUM must be equal to one of the allowed values\n(array,
 * …)` → `must be equal to one of the allowed values (array, …)`, and the frame's "Did you mean
 * string here?" as a suggestion.
 */
export function validationProblemText(message: string): { text: string; suggestion?: string } {
  const lines = message.split("\n");
  const end = lines.findIndex((line) => line.trim() === "");
  const text = (end < 0 ? lines.slice(0, 1) : lines.slice(0, end))
    .join(" ")
    .replace(/^[A-Z][A-Z ]*[A-Z] (?=[a-z])/, "")
    .trim();
  const hint = /\^+\s*Did you mean (.+?) here\?/.exec(message)?.[1];
  return hint ? { text, suggestion: hint } : { text };
}
