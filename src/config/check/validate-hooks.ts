/**
 * Semantic checks of hook entries beyond their structure: known events,
 * conditions and actions (each validated by its own module's schema, recursively), actions
 * used only on events where they can act, unique ids per scope, CEL that compiles.
 */
import type { z } from "zod";
import { nearest } from "../../errors/nearest.js";
import {
  ALL_EVENT_SPELLINGS,
  canonicalEventName,
  EVENT_KINDS,
  type EventName,
  type HookKind,
} from "../../events/catalogue.js";
import { ACTIONS, actionKind, actionTypes } from "../actions/index.js";
import { compileExpression } from "../conditions/expression.js";
import { CONDITIONS, conditionTypes } from "../conditions/index.js";
import { type HookEntry, hookEntrySchema } from "../schema/schema.js";
import { type ConfigIssue, type ConfigPath, formatPath } from "../source/config-error.js";
import { positionOf, type SourceDocument } from "../source/source-map.js";
import { zodIssues } from "../source/zod-issues.js";

export interface IssueSink {
  source: SourceDocument;
  file: string;
  issues: ConfigIssue[];
}

export function report(
  sink: IssueSink,
  path: ConfigPath,
  message: string,
  extra: { expected?: string; suggestion?: string; severity?: "error" | "warning"; key?: boolean } = {},
): void {
  const { line, column } = positionOf(sink.source, path, { key: extra.key });
  sink.issues.push({
    severity: extra.severity ?? "error",
    file: sink.file,
    line,
    column,
    path,
    message,
    expected: extra.expected,
    suggestion: extra.suggestion,
  });
}

function checkSchema(sink: IssueSink, schema: z.ZodType, value: unknown, path: ConfigPath): boolean {
  const parsed = schema.safeParse(value);
  if (parsed.success) return true;
  sink.issues.push(...zodIssues(parsed.error, schema, value, sink.source, sink.file, path));
  return false;
}

function typeOf(value: unknown): string | undefined {
  return value && typeof value === "object" && typeof (value as { type?: unknown }).type === "string"
    ? (value as { type: string }).type
    : undefined;
}

function checkCondition(
  sink: IssueSink,
  value: unknown,
  path: ConfigPath,
  event: EventName | undefined,
): void {
  const type = typeOf(value);
  if (type === undefined) {
    report(sink, path, "a condition needs a type", {
      expected: `a mapping with type: one of ${conditionTypes().join(", ")}`,
    });
    return;
  }
  const module = CONDITIONS.get(type);
  if (!module) {
    report(sink, [...path, "type"], `unknown condition "${type}"`, {
      expected: `one of ${conditionTypes().join(", ")}`,
      suggestion: nearest(type, conditionTypes()),
    });
    return;
  }
  if (!checkSchema(sink, module.schema, value, path)) return;
  if (event && module.events && !module.events.includes(event)) {
    report(sink, [...path, "type"], `condition "${type}" cannot be evaluated on ${event}`, {
      expected: `an event among ${module.events.join(", ")}`,
    });
  }
  if (type === "expression") {
    try {
      compileExpression(String((value as { expr: unknown }).expr));
    } catch (error) {
      report(sink, [...path, "expr"], `malformed CEL expression: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  for (const child of module.children?.(module.schema.parse(value)) ?? []) {
    checkCondition(sink, child.value, [...path, ...child.path], event);
  }
}

function checkAction(sink: IssueSink, value: unknown, path: ConfigPath, event: EventName | undefined): void {
  const type = typeOf(value);
  if (type === undefined) {
    report(sink, path, "an action needs a type", {
      expected: `a mapping with type: one of ${actionTypes().join(", ")}`,
    });
    return;
  }
  const module = ACTIONS.get(type);
  if (!module) {
    report(sink, [...path, "type"], `unknown action "${type}"`, {
      expected: `one of ${actionTypes().join(", ")}`,
      suggestion: nearest(type, actionTypes()),
    });
    return;
  }
  if (!checkSchema(sink, module.schema, value, path)) return;
  if (event && module.events !== "any" && !module.events.includes(event)) {
    report(sink, [...path, "type"], `action "${type}" cannot act on ${event}`, {
      expected: `an event among ${module.events.join(", ")}`,
    });
  }
  if (module.warnings) {
    for (const warning of module.warnings(module.schema.parse(value))) {
      report(sink, [...path, ...warning.path], warning.message, { severity: "warning" });
    }
  }
  for (const child of module.children?.(module.schema.parse(value)) ?? []) {
    checkAction(sink, child.value, [...path, ...child.path], event);
  }
}

/**
 * The hook kind an action compiles to must be one its event takes (a chain mixing decide and
 * transform actions has none; an action that transforms cannot sit on an inspect-only event).
 */
function checkActionKind(
  sink: IssueSink,
  value: unknown,
  path: ConfigPath,
  event: EventName | undefined,
): void {
  let kind: HookKind;
  try {
    kind = actionKind(value, path);
  } catch (error) {
    report(sink, path, (error as Error).message.replace(/^[^:]*: /, ""), {
      expected: "a chain whose actions all decide (gate) or all transform",
    });
    return;
  }
  if (event && !EVENT_KINDS[event].includes(kind)) {
    report(sink, [...path, "type"], `this action runs as a ${kind} hook, which ${event} does not take`, {
      expected: `an action that runs as ${EVENT_KINDS[event].join(" or ")} on ${event}`,
    });
  }
}

/** Validates one scope's hook list; returns the entries that parsed (with canonical events). */
export function validateHooks(
  sink: IssueSink,
  list: unknown,
  path: ConfigPath,
  /** Ids already used in this scope (runtime.hooks and execution.hooks share one scope). */
  seen: Map<string, ConfigPath> = new Map(),
): HookEntry[] {
  if (!Array.isArray(list)) return [];
  const entries: HookEntry[] = [];
  list.forEach((raw, index) => {
    const at = [...path, index];
    const before = sink.issues.length;
    const parsed = hookEntrySchema().safeParse(raw);
    if (!parsed.success)
      sink.issues.push(...zodIssues(parsed.error, hookEntrySchema(), raw, sink.source, sink.file, at));
    const value = (raw ?? {}) as Record<string, unknown>;
    const on = typeof value.on === "string" ? value.on : "run_end";
    const event = canonicalEventName(on);
    if (!event) {
      report(sink, [...at, "on"], `unknown event "${on}"`, {
        expected: `one of ${ALL_EVENT_SPELLINGS.join(", ")}`,
        suggestion: nearest(on, ALL_EVENT_SPELLINGS),
      });
    }
    if (value.condition !== undefined) checkCondition(sink, value.condition, [...at, "condition"], event);
    if (value.action !== undefined) {
      const errors = sink.issues.length;
      checkAction(sink, value.action, [...at, "action"], event);
      if (!sink.issues.slice(errors).some((issue) => issue.severity === "error"))
        checkActionKind(sink, value.action, [...at, "action"], event);
    }
    if (typeof value.id === "string") {
      const first = seen.get(value.id);
      if (first !== undefined) {
        report(
          sink,
          [...at, "id"],
          `duplicate hook id "${value.id}" in this scope (first at ${formatPath(first)})`,
          {
            expected: "ids unique within runtime.hooks and within each agent's hooks",
          },
        );
      } else {
        seen.set(value.id, at);
      }
    }
    // A warning (a risk the author took on) keeps the entry; an error drops it.
    const failed = sink.issues.slice(before).some((issue) => issue.severity === "error");
    if (parsed.success && event && !failed) entries.push({ ...parsed.data, on: event });
  });
  return entries;
}
