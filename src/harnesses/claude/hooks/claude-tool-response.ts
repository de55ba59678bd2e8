/**
 * `tool_response` as Claude Code hooks read it. A tool whose alias maps its result (the
 * builtin filesystem's Read / Write / Edit) answers in Claude's shape through the alias; a
 * tool whose result is already an object or a list (the coding toolset's tools, which
 * answer Claude's own shapes, or any tool returning JSON) is passed as it is; any other
 * result (a string, a number) is given as Claude Code gives an MCP tool's text:
 * `[{ "type": "text", "text": "…" }]`, so a hook reading fields finds a list, never a bare
 * string in one place and an object in another.
 */
import type { ToolAlias } from "../../../tools/tool-alias.js";

export function claudeToolResponse(result: unknown, args: unknown, alias: ToolAlias | undefined): unknown {
  if (alias?.toAliasOutput) {
    try {
      return alias.toAliasOutput(result, args);
    } catch {
      // A result the alias cannot read is shown as it is: a view never fails a hook.
    }
  }
  if (typeof result === "object" && result !== null) return result;
  return [{ type: "text", text: typeof result === "string" ? result : JSON.stringify(result ?? null) }];
}
