import { HookwiseError } from "../../errors/hookwise-error.js";

/**
 * An MCP tool call failed: the server answered `isError: true`, a protocol error (unknown
 * tool, invalid params, timeout), or the server died during the call. The loop turns it
 * into a tool error the model sees.
 */
export class McpToolError extends HookwiseError {
  override readonly name = "McpToolError";
  readonly server: string;
  readonly tool: string;
  /** `tool_error`: the server said isError; `protocol`: the call itself failed. */
  readonly reason: "tool_error" | "protocol";

  constructor(options: {
    server: string;
    tool: string;
    reason: McpToolError["reason"];
    message: string;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.server = options.server;
    this.tool = options.tool;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is McpToolError {
    return HookwiseError.isInstance(error) && error.name === "McpToolError";
  }
}
