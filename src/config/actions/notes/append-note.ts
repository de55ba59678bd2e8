/**
 * Adds a hook's note to a tool result without destroying its structure, so later hooks
 * and `{{tool.result.x}}` templates still reach its fields (an `lsp_diagnose` then a
 * `pipe` in one chain): an object (or a JSON object text) gains a `hook_notes` list; any
 * other result becomes text with the note after a blank line.
 */

export const NOTES_KEY = "hook_notes";

function asObject(result: unknown): Record<string, unknown> | undefined {
  if (result && typeof result === "object" && !Array.isArray(result))
    return result as Record<string, unknown>;
  if (typeof result === "string" && result.trimStart().startsWith("{")) {
    try {
      const parsed = JSON.parse(result);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function appendNote(result: unknown, note: string): unknown {
  const object = asObject(result);
  if (object) {
    const notes = Array.isArray(object[NOTES_KEY]) ? (object[NOTES_KEY] as unknown[]) : [];
    return { ...object, [NOTES_KEY]: [...notes, note] };
  }
  const text =
    result === undefined || result === null
      ? ""
      : typeof result === "string"
        ? result
        : JSON.stringify(result);
  return text ? `${text}\n\n${note}` : note;
}
