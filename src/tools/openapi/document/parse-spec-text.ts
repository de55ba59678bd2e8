/**
 * Parses an OpenAPI document's text (YAML, or JSON as YAML's subset) keeping positions, so
 * a syntax error is reported at the document's line and column, and later problems found
 * on the parsed object can be mapped back (`positionOf`).
 */
import { yaml } from "../../../deps/yaml.js";
import { MAX_NESTING_DEPTH, tooDeepAt } from "../../../deps/yaml-nesting-depth.js";
import { OpenApiToolsetError } from "../openapi-toolset-error.js";
import type { SpecSource } from "./read-spec-source.js";
import { positionAt } from "./yaml-positions.js";

export interface ParsedSpecText {
  value: unknown;
  positionOf(path: readonly (string | number)[]): { line: number; column: number };
}

export function parseSpecText(source: SpecSource, toolset: string): ParsedSpecText {
  const deep = tooDeepAt(source.text);
  if (deep !== undefined) {
    const before = source.text.slice(0, deep);
    throw new OpenApiToolsetError({
      toolset,
      at: ["spec"],
      file: source.display,
      line: before.split("\n").length,
      column: deep - before.lastIndexOf("\n"),
      problem: `the document nests more than ${MAX_NESTING_DEPTH} levels deep`,
    });
  }
  const lines = new (yaml().LineCounter)();
  const document = yaml().parseDocument(source.text, { lineCounter: lines, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    const position = error.linePos?.[0] ?? { line: 1, col: 1 };
    const syntax =
      /\.json$/i.test(source.display) || source.text.trimStart().startsWith("{") ? "JSON" : "YAML";
    throw new OpenApiToolsetError({
      toolset,
      at: ["spec"],
      file: source.display,
      line: position.line,
      column: position.col,
      problem: `${syntax} syntax: ${error.message.split("\n")[0]}`,
    });
  }
  const value = document.toJS({ maxAliasCount: 1000 });
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OpenApiToolsetError({
      toolset,
      at: ["spec"],
      file: source.display,
      line: 1,
      column: 1,
      problem: "the document is not a mapping",
      expected: "an OpenAPI document (openapi: 3.x, info, paths)",
    });
  }
  return { value, positionOf: (path) => positionAt(document, lines, path) };
}
