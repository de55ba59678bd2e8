/**
 * The names tools of the same kind share across harnesses: the qualified name hookwise gives
 * each harness tool, so `tool: shell` in a policy covers Claude Code's `Bash`, Codex's
 * `Bash` (its `exec_command`) and Gemini CLI's `run_shell_command` at once, while the
 * harness's own name (the function name) still matches that harness's tool alone.
 */
export const TOOL_FAMILIES = {
  shell: "runs a shell command",
  read_file: "reads a file",
  write_file: "writes a file",
  edit_file: "edits a file in place",
  search_files: "searches file contents",
  find_files: "finds files by name pattern",
  list_directory: "lists a directory",
  web_fetch: "fetches a URL",
  web_search: "searches the web",
  delegate: "hands a task to a sub-agent",
} as const;

export type ToolFamily = keyof typeof TOOL_FAMILIES;

/** A loose object schema: the harness checks its own input; a rewrite must stay an object with these fields. */
export function objectSchema(
  properties: Record<string, "string" | "number" | "boolean" | "array" | "object">,
  required: readonly string[] = [],
): Record<string, unknown> {
  // A plain loop: the harnesses' tool lists make some fifty of these as hookwise loads.
  const shaped: Record<string, { type: string }> = {};
  for (const key of Object.keys(properties)) shaped[key] = { type: properties[key]! };
  return { type: "object", properties: shaped, required: [...required], additionalProperties: true };
}
