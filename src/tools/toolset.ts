/** A named group of resolved tools with one lifetime (an MCP server, a module, a builtin). */
import type { ResolvedTool } from "./resolved-tool.js";

export interface Toolset {
  readonly name: string;
  readonly tools: ResolvedTool[];
  /** Per qualified tool name, where a call goes (REST toolsets: `POST /invoices`); shown by `validate`. */
  readonly endpoints?: ReadonlyMap<string, string>;
  /** Releases what the toolset holds (servers, connections). Safe to call twice. */
  close(): Promise<void>;
}
