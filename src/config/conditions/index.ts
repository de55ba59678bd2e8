/**
 * The condition registry (14 conditions). Adding a kind = one new module file
 * plus its import and its entry in MODULES below; no other condition changes.
 */
import { type KindOutputs, parseKind } from "../schema/kind-outputs.js";
import { formatPath } from "../source/config-error.js";
import { allOf } from "./all-of.js";
import { always } from "./always.js";
import { anyOf } from "./any-of.js";
import type { ConditionModule, Predicate } from "./condition-module.js";
import { contentContains } from "./content-contains.js";
import { contextPressure } from "./context-pressure.js";
import { errorType } from "./error-type.js";
import { expression } from "./expression.js";
import { messageCount } from "./message-count.js";
import { never } from "./never.js";
import { not } from "./not.js";
import { toolCalls } from "./tool-calls.js";
import { toolFailed } from "./tool-failed.js";
import { toolName } from "./tool-name.js";
import { turnCount } from "./turn-count.js";

const MODULES: readonly ConditionModule[] = [
  always,
  never,
  allOf,
  anyOf,
  not,
  contextPressure,
  turnCount,
  toolCalls,
  messageCount,
  toolName,
  toolFailed,
  contentContains,
  errorType,
  expression,
];

/** Every condition module by type (conditions have no aliases). */
export const CONDITIONS: ReadonlyMap<string, ConditionModule> = new Map(
  MODULES.map((module) => [module.type, module]),
);

/** The canonical condition types, in documentation order. */
export function conditionTypes(): string[] {
  return MODULES.map((module) => module.type);
}

/**
 * Validates a condition against its module's schema and compiles it, nested conditions
 * included. Throws a plain Error naming `path` when the type is unknown or the condition
 * does not validate; the loader reports user-facing errors before ever calling this.
 * `outputs`: the schema outputs validation kept with a cached config (see `kindOutputs`).
 */
export function compileCondition(
  value: unknown,
  path: readonly (string | number)[] = [],
  outputs?: KindOutputs,
): Predicate {
  const type = (value as { type?: unknown } | null)?.type;
  const module = typeof type === "string" ? CONDITIONS.get(type) : undefined;
  if (!module) {
    const what = typeof type === "string" ? `unknown condition type "${type}"` : "a condition needs a type";
    throw new Error(`${formatPath(path)}: ${what}; valid types: ${conditionTypes().join(", ")}`);
  }
  const parsed = parseKind("condition", module, value, outputs);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${formatPath([...path, ...(issue.path as (string | number)[])])}: ${issue.message}`,
    );
    throw new Error(`invalid ${module.type} condition: ${issues.join("; ")}`);
  }
  return module.compile(parsed.data, (child, childPath) =>
    compileCondition(child, [...path, ...childPath], outputs),
  );
}

export type { ChildRef, CompileChild, ConditionModule, Predicate } from "./condition-module.js";
export { defineCondition } from "./condition-module.js";
export { type CompiledExpression, compileExpression, EXPRESSION_VARIABLES } from "./expression.js";
export { ExpressionError } from "./expression-error.js";
