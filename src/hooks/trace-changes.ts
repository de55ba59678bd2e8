/**
 * What a hook's trace entry changed, as before/after pairs — the one reading of a firing
 * that both timelines use (the web UI's and `hookwise trace`): a request patch field by
 * field, rewritten arguments against the arguments before the hook, a rewritten input or
 * output against the original. A rewritten tool result is never shown (a later hook may
 * have redacted it); the reason of a decision is. Plain data in, plain data out: no import.
 */

/** One changed field: what it was, what the hook made it. */
export interface TraceChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What a firing's before/after is read against. */
export interface ChangeContext {
  /** The agent's instructions (a patched `system`). */
  instructions?: string | undefined;
  /** The call's arguments before this hook (a `rewriteArgs`). */
  args?: unknown;
  /** The call's tool, to name the field. */
  toolName?: string | undefined;
  /** The run's input (a `rewriteInput`). */
  input?: string | undefined;
  /** The step's text (a `rewriteOutput`). */
  output?: string | undefined;
}

export const REWRITTEN_RESULT_NOTE =
  "the result was rewritten; the original is not shown (a later hook may have redacted it)";

const REASONED = new Set(["deny", "terminate", "ask", "retry", "error", "timeout", "aborted", "fail_open"]);

/** The reason a firing gives: of a decision (deny, terminate, ask, retry) or a failure. */
export function reasonOf(entry: { effect: string; detail?: unknown }): string | undefined {
  return REASONED.has(entry.effect) && entry.detail !== undefined ? String(entry.detail) : undefined;
}

/** A request patch as before/after pairs, field by field. */
export function patchChanges(patch: unknown, instructions?: string): TraceChange[] {
  const changes: TraceChange[] = [];
  for (const [field, value] of Object.entries((patch as Record<string, unknown> | undefined) ?? {})) {
    if (field === "system") changes.push({ field, before: instructions ?? "", after: value });
    else if (field === "extraContext" || field === "appendToUserMessage") {
      const added = (Array.isArray(value) ? value : [value]).map((item) =>
        typeof item === "string" ? item : (item as { text?: unknown }).text,
      );
      changes.push({ field, before: "", after: added.join("\n") });
    } else if (field === "messages") {
      changes.push({
        field,
        before: "(the transcript)",
        after: `${(value as unknown[]).length} message(s) instead, for this attempt only`,
      });
    } else changes.push({ field, before: undefined, after: value });
  }
  return changes;
}

/** What a firing changed (`changes`), or a note when it cannot be shown. */
export function changesOf(
  entry: { effect: string; detail?: unknown },
  context: ChangeContext = {},
): { changes: TraceChange[]; note?: string } {
  switch (entry.effect) {
    case "patch":
      return { changes: patchChanges(entry.detail, context.instructions) };
    case "rewriteArgs":
      return {
        changes: [
          {
            field: context.toolName ? `${context.toolName} arguments` : "arguments",
            before: context.args,
            after: entry.detail,
          },
        ],
      };
    case "rewriteInput":
      return { changes: [{ field: "input", before: context.input ?? "", after: entry.detail }] };
    case "rewriteOutput":
      return { changes: [{ field: "output", before: context.output ?? "", after: entry.detail }] };
    case "rewriteResult":
      return { changes: [], note: REWRITTEN_RESULT_NOTE };
    default:
      return { changes: [] };
  }
}
