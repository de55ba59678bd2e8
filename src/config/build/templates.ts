/**
 * Templates: `{{tool.name}}`, `{{tool.fqn}}`, `{{tool.params.a.b.0}}`,
 * negative indices (`items.-1`), `{{tool.result}}` as JSON, `{{tool.error}}`,
 * `{{run.input}}`, `{{session.id}}`, `{{workspace}}`, `{{request.step}}` and
 * `{{request.attempt}}` (which provider request, which try of it); and, in log / notify messages,
 * `{{turn}}` `{{tokens}}` `{{tools}}` `{{pressure}}` (or with single braces: `{turn}`). Missing paths
 * render empty; never throws.
 */

import { printable } from "../printable.js";
import type { Evaluation } from "./evaluation.js";

/** jsonpath-lite: dot-separated keys, numeric segments index lists (negative from the end). */
export function walkPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || current === undefined) return undefined;
    if (typeof current === "string" && path.length > 0) {
      try {
        current = JSON.parse(current);
      } catch {
        return undefined;
      }
    }
    if (Array.isArray(current) && /^-?\d+$/.test(segment)) {
      const index = Number(segment);
      current = current[index < 0 ? current.length + index : index];
    } else if (typeof current === "object") {
      current = Object.hasOwn(current as object, segment)
        ? (current as Record<string, unknown>)[segment]
        : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** The value a `{{…}}` expression names, or undefined. */
export function lookup(expression: string, evaluation: Evaluation, workspace: string): unknown {
  const [root, ...rest] = expression.trim().split(".");
  const tool = evaluation.tool;
  switch (root) {
    case "tool": {
      if (!tool) return undefined;
      const [field, ...path] = rest;
      if (field === "name") return tool.name;
      if (field === "fqn") return tool.fqn;
      if (field === "error") return tool.error ?? "";
      if (field === "params" || field === "args") return walkPath(tool.params, path);
      if (field === "result") return walkPath(tool.result, path);
      return undefined;
    }
    case "run":
      if (rest[0] === "input") return evaluation.context.input;
      if (rest[0] === "id") return evaluation.context.runId;
      return undefined;
    case "session":
      return rest[0] === "id" ? evaluation.context.sessionId : undefined;
    case "request":
      if (rest[0] === "step") return evaluation.context.step;
      if (rest[0] === "attempt") return evaluation.context.attempt;
      return undefined;
    case "agent":
      return rest[0] === "id" || rest[0] === "name" ? evaluation.context.agentName : undefined;
    case "workspace":
      return workspace;
    case "error":
      return rest.length ? walkPath(evaluation.error, rest) : evaluation.error?.message;
    default:
      return undefined;
  }
}

/** `{{…}}`, or (group 2) one of the `{stat}` words; one pass, so filled values are never re-scanned. */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}|\{(turn|tokens|tools|pressure|messages|max_turns)\}/g;

const STATS = new Set(["turn", "tokens", "tools", "pressure", "messages", "max_turns"]);

function statText(evaluation: Evaluation, stat: keyof Evaluation["stats"]): string {
  const value = evaluation.stats[stat];
  return stat === "pressure" ? value.toFixed(2) : String(value);
}

/** Whether a template has a placeholder (its text can change from one rendering to the next). */
export function isTemplated(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  const found = PLACEHOLDER.test(text);
  PLACEHOLDER.lastIndex = 0;
  return found;
}

export function renderTemplate(
  template: string,
  evaluation: Evaluation,
  workspace: string,
  options: {
    stats?: boolean;
    /** Escape control characters in filled values (text for a terminal or a log line). */
    printable?: boolean;
  } = {},
): string {
  return template.replace(
    PLACEHOLDER,
    (whole, expression: string | undefined, stat: keyof Evaluation["stats"]) => {
      if (expression !== undefined) {
        // `{{turn}}` is `{turn}`: one brace style for every placeholder of a config.
        const word = expression.trim();
        if (STATS.has(word))
          return options.stats ? statText(evaluation, word as keyof Evaluation["stats"]) : whole;
        const value = stringify(lookup(expression, evaluation, workspace));
        return options.printable ? printable(value) : value;
      }
      if (!options.stats) return whole;
      return statText(evaluation, stat);
    },
  );
}

/**
 * Renders every string inside a value (objects and lists recursively). A string that is
 * exactly one `{{…}}` naming a number or boolean keeps that type; objects and lists
 * render as JSON text (`{{tool.result}}` is the whole result, stringified).
 */
export function renderValue(value: unknown, evaluation: Evaluation, workspace: string): unknown {
  if (typeof value === "string") {
    const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(value);
    if (whole) {
      const found = lookup(whole[1]!, evaluation, workspace);
      return typeof found === "number" || typeof found === "boolean" ? found : stringify(found);
    }
    return renderTemplate(value, evaluation, workspace);
  }
  if (Array.isArray(value)) return value.map((item) => renderValue(item, evaluation, workspace));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, renderValue(item, evaluation, workspace)]),
    );
  }
  return value;
}
