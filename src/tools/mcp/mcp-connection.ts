/**
 * One live connection to an MCP server, through the official SDK client. It connects on
 * first use, notices when the server dies (the transport closes without us closing it)
 * and starts it again on the next call — a call already in flight when it died fails
 * (it is not replayed: the tool may have had side effects). `close()` ends it for good.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { importOptional } from "../../errors/optional-package.js";
import { type SecretMasker, secretMasker } from "../../secrets/secret-masker.js";
import { maskSecrets, registerSecret } from "../../secrets/secret-registry.js";
import { describeSpec, type McpServerSpec, urlSecrets } from "./mcp-server-spec.js";
import { stderrSummary } from "./stderr-summary.js";
import { type StdioCodec, StdioGroupTransport } from "./stdio-group-transport.js";

export interface McpLogger {
  debug(message: string): void;
  warn(message: string): void;
}

const STDERR_TAIL = 2_000;

interface McpSdk {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  stdio: StdioCodec;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  ToolListChangedNotificationSchema: typeof import("@modelcontextprotocol/sdk/types.js").ToolListChangedNotificationSchema;
}

let sdk: Promise<McpSdk> | undefined;

/** The MCP SDK, an optional package: loaded by the first connection. */
function loadSdk(): Promise<McpSdk> {
  const purpose = "MCP toolsets";
  sdk ??= Promise.all([
    importOptional<typeof import("@modelcontextprotocol/sdk/client/index.js")>(
      "@modelcontextprotocol/sdk/client/index.js",
      purpose,
    ),
    importOptional<typeof import("@modelcontextprotocol/sdk/client/stdio.js")>(
      "@modelcontextprotocol/sdk/client/stdio.js",
      purpose,
    ),
    importOptional<typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")>(
      "@modelcontextprotocol/sdk/client/streamableHttp.js",
      purpose,
    ),
    importOptional<typeof import("@modelcontextprotocol/sdk/types.js")>(
      "@modelcontextprotocol/sdk/types.js",
      purpose,
    ),
    importOptional<typeof import("@modelcontextprotocol/sdk/shared/stdio.js")>(
      "@modelcontextprotocol/sdk/shared/stdio.js",
      purpose,
    ),
  ]).then(
    ([client, stdio, http, types, codec]) => ({
      Client: client.Client,
      stdio: {
        ReadBuffer: codec.ReadBuffer,
        serializeMessage: codec.serializeMessage,
        getDefaultEnvironment: stdio.getDefaultEnvironment,
      },
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    }),
    (error: unknown) => {
      sdk = undefined;
      throw error;
    },
  );
  return sdk;
}
const CLIENT_INFO = { name: "hookwise", version: "0.1.0" };

export interface McpConnectionOptions {
  /** Names the server in messages (`"github"`). */
  label: string;
  log?: McpLogger;
  /** The spec as written (`${VAR}` kept), shown in messages instead of the expanded one. */
  display?: McpServerSpec;
  /** Values substituted from the environment: masked in what a failed start reports. */
  secrets?: readonly string[];
}

export class McpConnection {
  readonly #spec: McpServerSpec;
  readonly #label: string;
  readonly #log: McpLogger;
  readonly #display: McpServerSpec;
  readonly #secrets: SecretMasker;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #closed = false;
  #stderr = "";
  /** The start of the server's stderr: where a start-up error says why, before its stack. */
  #stderrHead = "";
  /** Whether `#stderr` lost its start (it keeps the last STDERR_TAIL characters). */
  #stderrCut = false;
  #starts = 0;
  readonly #toolsChanged = new Set<() => void>();

  constructor(spec: McpServerSpec, options: McpConnectionOptions) {
    this.#spec = spec;
    this.#label = options.label;
    this.#display = options.display ?? spec;
    // A URL's user, password, query and fragment are secrets as much as a `${VAR}` is.
    for (const secret of urlSecrets(spec)) registerSecret(secret);
    this.#secrets = secretMasker(
      [...(options.secrets ?? []), ...urlSecrets(spec)].map((value) => ({ value })),
    );
    this.#log = options.log ?? { debug() {}, warn: (message) => console.warn(`[hookwise] ${message}`) };
  }

  /** How many times the server was started (1 after the first connect; more after restarts). */
  get starts(): number {
    return this.#starts;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The connected client, connecting (or reconnecting after a death) when needed. */
  client(): Promise<Client> {
    if (this.#closed) return Promise.reject(new HookwiseError(`MCP server ${this.#label} is closed`));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /**
   * Calls `listener` whenever the server says its tool list changed
   * (`notifications/tools/list_changed`); returns the function that stops it.
   */
  onToolsChanged(listener: () => void): () => void {
    this.#toolsChanged.add(listener);
    return () => this.#toolsChanged.delete(listener);
  }

  async listTools(): Promise<Tool[]> {
    const client = await this.client();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(
    name: string,
    args: unknown,
    signal?: AbortSignal,
    onProgress?: (progress: { progress: number; total?: number; message?: string }) => void,
  ): Promise<CallToolResult> {
    const client = await this.client();
    const result = await client.callTool(
      { name, arguments: (args ?? {}) as Record<string, unknown> },
      undefined,
      {
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onprogress: onProgress } : {}),
        resetTimeoutOnProgress: true,
      },
    );
    return result as CallToolResult;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (!client) return;
    const transport = client.transport;
    const { StreamableHTTPClientTransport } = await loadSdk();
    if (transport instanceof StreamableHTTPClientTransport) {
      // Tell the server this session is over; a server without sessions answers 405, fine.
      await transport.terminateSession().catch(() => {});
    }
    await client.close();
  }

  async #connect(): Promise<Client> {
    const loaded = await loadSdk();
    const transport = this.#transport(loaded);
    const client = new loaded.Client(CLIENT_INFO);
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      if (!this.#closed) this.#log.warn(`MCP server ${this.#label} went away; it restarts on the next call`);
    };
    client.onerror = (error) => this.#log.debug(this.#mask(`MCP server ${this.#label}: ${error.message}`));
    client.setNotificationHandler(loaded.ToolListChangedNotificationSchema, () => {
      for (const listener of this.#toolsChanged) listener();
    });
    this.#starts++;
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => {});
      const tail = stderrSummary(this.#stderrHead, this.#stderr, this.#stderrCut);
      // The server's stderr or the SDK's message may repeat an argument, a URL or a header.
      throw new HookwiseError(
        this.#mask(
          `MCP server ${this.#label} (${describeSpec(this.#display)}) could not start: ${(error as Error).message}` +
            (tail ? `; its stderr: ${tail}` : ""),
        ),
      );
    }
    if (this.#closed) {
      await client.close();
      throw new HookwiseError(`MCP server ${this.#label} is closed`);
    }
    this.#client = client;
    return client;
  }

  #mask(text: string): string {
    return maskSecrets(this.#secrets.text(text));
  }

  #transport({ stdio, StdioClientTransport, StreamableHTTPClientTransport }: McpSdk): Transport {
    const spec = this.#spec;
    if ("url" in spec) {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: { ...spec.headers } },
      });
    }
    // Its own process group: closing the connection ends the server and what it started.
    // Windows has no process groups to signal, and its commands (`npx.cmd`) need the SDK's
    // way of starting them.
    const transport =
      process.platform === "win32"
        ? new StdioClientTransport({
            command: spec.command,
            args: [...(spec.args ?? [])],
            ...(spec.env ? { env: { ...spec.env } } : {}),
            ...(spec.cwd ? { cwd: spec.cwd } : {}),
            stderr: "pipe",
          })
        : new StdioGroupTransport(
            { command: spec.command, args: spec.args ?? [], env: spec.env, cwd: spec.cwd },
            stdio,
          );
    // Kept (a short tail) for error messages; a server's chatter goes to debug logs only.
    transport.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      this.#stderrCut ||= this.#stderr.length + text.length > STDERR_TAIL;
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
      if (this.#stderrHead.length < STDERR_TAIL)
        this.#stderrHead = (this.#stderrHead + text).slice(0, STDERR_TAIL);
      this.#log.debug(`MCP server ${this.#label} stderr: ${text.trimEnd()}`);
    });
    return transport;
  }
}
