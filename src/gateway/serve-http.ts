/**
 * The gateway over Streamable HTTP at `/mcp`: each MCP session (its `Mcp-Session-Id`) is
 * one connection of the gateway and one hookwise session of the same id. Several gateway
 * processes may share a Redis store (counters and limits hold across them); a client's
 * session stays on the process that opened it, so a load balancer keeps it there (by
 * the `Mcp-Session-Id` header).
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { nodeCrypto } from "../deps/node-crypto.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { importOptional } from "../errors/optional-package.js";
import { refusal } from "./http-access.js";
import type { McpGateway } from "./mcp-gateway.js";

const IDLE_MS = 30 * 60 * 1000;
/** Sessions open at once, at most: a client opening session after session is refused (503). */
const MAX_SESSIONS = 1_000;

export interface HttpGateway {
  /** `http://host:port/mcp` */
  readonly url: string;
  close(): Promise<void>;
}

function jsonError(res: ServerResponse, status: number, message: string, code = -32_000): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export async function serveHttp(
  gateway: McpGateway,
  options: {
    host: string;
    port: number;
    token: string | undefined;
    log: (line: string) => void;
    /** A session with no request for this long is closed (default 30 minutes). */
    idleMs?: number;
    /** Sessions open at once, at most (default 1000); one more is refused with 503. */
    maxSessions?: number;
  },
): Promise<HttpGateway> {
  const idleMs = options.idleMs ?? IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  // Initializations under way count too: a burst of them cannot slip past the bound.
  let opening = 0;
  const { StreamableHTTPServerTransport: Transport } = await importOptional<
    typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")
  >("@modelcontextprotocol/sdk/server/streamableHttp.js", "hookwise mcp --http");
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  // A client that never ends its session (no DELETE) does not keep it forever.
  const sweeper = setInterval(
    () => {
      const before = Date.now() - idleMs;
      for (const [id, seen] of lastSeen)
        if (seen < before) {
          lastSeen.delete(id);
          options.log(`session ${id} closed after ${Math.round(idleMs / 1000)} s without a request`);
          void transports.get(id)?.close();
        }
    },
    Math.min(60_000, idleMs),
  );
  sweeper.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/mcp") return jsonError(res, 404, "not found: the MCP endpoint is /mcp");
    const refused = refusal(req.headers, options.token);
    if (refused) {
      if (refused.status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="hookwise"');
      return jsonError(res, refused.status, refused.message);
    }
    const header = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const transport = sessionId === undefined ? undefined : transports.get(sessionId);
    if (transport !== undefined) lastSeen.set(sessionId!, Date.now());
    if (sessionId !== undefined && transport === undefined)
      return jsonError(res, 404, `no MCP session "${sessionId}" here: initialize a new one`, -32_001);
    if (transport === undefined) {
      if (req.method !== "POST") return jsonError(res, 400, "start a session with a POST of initialize");
      if (transports.size + opening >= maxSessions) {
        options.log(`a new session was refused: ${maxSessions} are open`);
        res.setHeader("Retry-After", "60");
        return jsonError(
          res,
          503,
          `${maxSessions} MCP sessions are open, the most this gateway keeps: end one (DELETE /mcp with its Mcp-Session-Id) or wait for idle ones to close`,
        );
      }
      opening++;
      try {
        await openSession(req, res);
      } finally {
        opening--;
      }
      return;
    }
    await transport.handleRequest(req, res);
  };

  /** A request without a session: an initialize opens one (any other request opens nothing). */
  const openSession = async (req: IncomingMessage, res: ServerResponse) => {
    const made: StreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => nodeCrypto().randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, made);
        lastSeen.set(id, Date.now());
      },
    });
    const connection = await gateway.connect(made, () => made.sessionId);
    // The server's own handler (set by connect) runs first: its pending requests end.
    const closed = made.onclose;
    made.onclose = () => {
      closed?.();
      if (made.sessionId !== undefined) {
        transports.delete(made.sessionId);
        lastSeen.delete(made.sessionId);
      }
      void connection.close();
    };
    await made.handleRequest(req, res);
    // A first request that was not an initialize opened no session: nothing to keep.
    if (made.sessionId === undefined) await connection.close();
  };

  const { createServer } = process.getBuiltinModule("node:http");
  const server: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) jsonError(res, 500, "internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      clearInterval(sweeper);
      const why =
        error.code === "EADDRINUSE"
          ? `port ${options.port} is in use (choose another with --port, or --port 0 for any free one)`
          : error.code === "EACCES"
            ? `no permission to listen on port ${options.port}`
            : error.message;
      reject(new HookwiseError(`cannot listen on ${options.host}:${options.port}: ${why}`, { cause: error }));
    };
    server.once("error", refused);
    server.listen(options.port, options.host, () => {
      server.off("error", refused);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/mcp`,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => {})));
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
