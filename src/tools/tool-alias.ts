/**
 * Another runtime's name and argument shape for a tool, so hooks written for that runtime
 * work unchanged: Claude Code's hooks match `Read`, `Write`, `Edit`, `Bash` or
 * `mcp__<server>__<tool>` and read `tool_input.file_path` / `tool_input.command`. A toolset
 * (builtin, MCP) or a `tool()` definition declares it; hooks that speak that dialect map the
 * arguments both ways, and a rewrite mapped back is still checked against the tool's schema.
 */
export interface ToolAlias {
  /** The name such hooks match and receive (`tool_name`). */
  readonly name: string;
  /** This tool's arguments in the alias's shape. Default: unchanged. */
  toAliasInput?(args: unknown): unknown;
  /**
   * Arguments in the alias's shape (a hook's rewrite) as this tool's. Default: unchanged.
   * Throws with a clear message for fields this tool cannot take.
   */
  fromAliasInput?(input: unknown): unknown;
  /**
   * This tool's result as such hooks expect it (Claude Code's `tool_response`), given the
   * call's arguments in this tool's shape. Default: the result as the tool returned it.
   */
  toAliasOutput?(result: unknown, args: unknown): unknown;
}
