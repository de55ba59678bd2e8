/**
 * The gateway over stdio: one client, one MCP session, one hookwise session of a new id.
 * stdout is the protocol; nothing else may write there. The connection ends when the
 * client closes stdin (or the transport fails).
 */
import { importOptional } from "../errors/optional-package.js";
import type { GatewayConnection, McpGateway } from "./mcp-gateway.js";

/** How long the calls under way when stdin ends may take to answer. */
const DRAIN_MS = 10_000;

export interface StdioGateway {
  readonly connection: GatewayConnection;
  /** Resolves when the client went away (stdin closed) and the calls it left have answered. */
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
  const inputEnded = new Promise<void>((resolve) => {
    end = resolve;
  });
  // The SDK's transport does not watch for the end of stdin: the client closing it ends us.
  streams.stdin.once("end", () => end());
  streams.stdin.once("close", () => end());
  const connection = await gateway.connect(transport);
  // Requests read before stdin ended are still answered (a client may write and close).
  const ended = inputEnded.then(async () => {
    await connection.drain(DRAIN_MS);
    await connection.close();
  });
  transport.onclose = ((previous) => () => {
    previous?.();
    end();
  })(transport.onclose);
  return { connection, ended };
}
