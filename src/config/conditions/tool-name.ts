/**
 * `tool_name`: the event's tool matches a glob, an `a|b` alternation, or a list
 * of globs; tested against the qualified name (`fs.write`) and the function name
 * (`fs_write`). Globs are picomatch's (`*` crosses dots, so `*.write` matches `fs.write`);
 * `|` splits alternatives only outside brackets, so `fs.@(read|write)` stays one glob.
 */

import { z } from "../../deps/zod.js";
import { toolGlob } from "../../hooks/tool-glob.js";
import { defineCondition } from "./condition-module.js";

const description =
  'Fires when the tool matches a glob, an "a|b" alternation or a list (qualified or function name).';

/** Splits "a|b|c" on `|` outside (), [] and {}. */
export function splitAlternatives(pattern: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") index++;
    else if (char === "(" || char === "[" || char === "{") depth++;
    else if ((char === ")" || char === "]" || char === "}") && depth > 0) depth--;
    else if (char === "|" && depth === 0) {
      parts.push(pattern.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

export const toolName = defineCondition({
  type: "tool_name",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("tool_name"),
        match: z
          .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
          .describe('A glob ("fs.*"), an alternation ("Write|Edit") or a list of globs'),
      })
      .describe(description),
  events: ["tool_call", "tool_result", "tool_error", "invalid_tool_call", "approval_request"],
  compile(config) {
    const patterns = (typeof config.match === "string" ? [config.match] : config.match).flatMap(
      splitAlternatives,
    );
    const matches = toolGlob(patterns);
    return (evaluation) => {
      const tool = evaluation.tool;
      return tool !== undefined && (matches(tool.fqn) || matches(tool.name));
    };
  },
  example: { type: "tool_name", match: "Write|Edit" },
});
