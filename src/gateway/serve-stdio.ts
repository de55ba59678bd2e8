/**
 * The gateway over stdio: one client, one MCP session, one hookwise session of a new id.
 * stdout is the protocol; nothing else may write there. The connection ends when the
 * client closes stdin (or the transport fails).
 */
import { importOptional } from "../errors/optional-package.js";
import type { GatewayConnection, McpGateway } from "./mcp-gateway.js";

export interface StdioGateway {
  readonly connection: GatewayConnection;
  /** Resolves when the client went away (stdin closed). */
  readonly ended: Promise<void>;
}

export async function serveStdio(
  gateway: McpGateway,
  streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = {
    stdin: process.stdin,
    stdout: process.stdout,
  },
): Promise<StdioGateway> {
  const { StdioServerTransport } = await importOptional<
    typeof import("@modelcontextprotocol/sdk/server/stdio.js")
  >("@modelcontextprotocol/sdk/server/stdio.js", "hookwise mcp");
  const transport = new StdioServerTransport(
    streams.stdin as typeof process.stdin,
    streams.stdout as typeof process.stdout,
  );
  let end!: () => void;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  // The SDK's transport does not watch for the end of stdin: the client closing it ends us.
  streams.stdin.once("end", () => end());
  streams.stdin.once("close", () => end());
  const connection = await gateway.connect(transport);
  const closeConnection = connection.close;
  void ended.then(() => closeConnection());
  transport.onclose = ((previous) => () => {
    previous?.();
    end();
  })(transport.onclose);
  return { connection, ended };
}
