/** A named group of resolved tools with one lifetime (an MCP server, a module, a builtin). */
import type { ResolvedTool } from "./resolved-tool.js";

export interface Toolset {
  readonly name: string;
  readonly tools: ResolvedTool[];
  /** Per qualified tool name, where a call goes (REST toolsets: `POST /invoices`); shown by `validate`. */
  readonly endpoints?: ReadonlyMap<string, string>;
  /**
   * Calls `listener` after the toolset's `tools` changed in place (an MCP server's
   * `notifications/tools/list_changed`); returns the function that stops it. Absent: the
   * tools never change.
   */
  onToolsChanged?(listener: () => void): () => void;
  /** Releases what the toolset holds (servers, connections). Safe to call twice. */
  close(): Promise<void>;
}
