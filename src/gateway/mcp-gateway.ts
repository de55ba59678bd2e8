/**
 * An agent's tools as an MCP server: one SDK `Server` per client connection (an MCP
 * session), each a hookwise tool-call session, so every `tools/call` goes through the
 * agent's hooks and policies as a call its model made (agent/tool-call-session.ts).
 *
 * Approvals: what the config does not answer itself (an `approval_request` hook, a policy's
 * handler) waits, with `inbox`, bounded, for a decision in the approval inbox of a
 * `hookwise serve` on the same store (approvals/approval-mailbox.ts), and is denied if none
 * comes — whatever the client can do, so that a client never approves its own calls there.
 * Without an inbox it is asked of the client with MCP elicitation when it declared the
 * capability — accept runs the call once, decline or cancel denies it with the reason — and
 * denied otherwise, with a reason saying how to approve.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import {
  openToolCallSession,
  type ToolCallApproval,
  type ToolCallSession,
} from "../agent/tool-call-session.js";
import type { Agent } from "../agent/types.js";
import { ApprovalMailbox } from "../approvals/approval-mailbox.js";
import { inboxVerifierFromEnv } from "../approvals/inbox-signature.js";
import { flatUuid } from "../loop/flat-uuid.js";
import { maskSecrets } from "../secrets/secret-registry.js";
import { withToolProgress } from "../tools/tool-progress.js";
import { approvalMessage } from "./approval-message.js";
import { callToolResult } from "./call-tool-result.js";
import { clientLabel } from "./client-label.js";
import { gatewayTools } from "./gateway-tools.js";
import { loadMcpServerSdk } from "./load-mcp-server-sdk.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpGatewayOptions {
  agent: Agent;
  /** Announced to clients in `initialize`. */
  version: string;
  /** Where the gateway's own lines go (never stdout under stdio). */
  log?: (line: string) => void;
  /** Keep a run record per call and each session's transcript in the agent's store (default true). */
  record?: boolean;
  /**
   * Every approval waits this long for a decision in the approval inbox of a `hookwise serve`
   * on the agent's store (`runtime.approvals: inbox`), never asked of the client. Unset: the
   * client is asked with MCP elicitation, or the call is denied at once when it cannot be.
   */
  inbox?: { waitMs: number };
}

/** One client's connection: its MCP server and its hookwise session. */
export interface GatewayConnection {
  readonly server: Server;
  /** The hookwise session's id (made at the first call). */
  readonly sessionId: string | undefined;
  /** Resolves once the calls under way have answered (at most `ms`); new calls still may come. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** How long the client's user has to answer an approval (elicitation/create). */
const ELICIT_TIMEOUT_MS = 10 * 60 * 1000;

const HOW_TO_APPROVE =
  "this MCP client cannot answer approval requests (it did not declare MCP elicitation): use a client that supports elicitation, set runtime.approvals: inbox to decide it in a running hookwise serve, or answer it in the config (an approval_request hook, or a policy that allows the call)";

export class McpGateway {
  readonly #options: McpGatewayOptions;
  #agent: Agent;
  readonly #connections = new Set<GatewayConnection>();
  #closed = false;

  constructor(options: McpGatewayOptions) {
    this.#options = options;
    this.#agent = options.agent;
  }

  /**
   * Serves `agent` from now on (the same agent rebuilt: its tools changed), in the
   * sessions already open too, and tells every client its tool list changed.
   */
  async replaceAgent(agent: Agent): Promise<void> {
    this.#agent = agent;
    await this.toolsChanged();
  }

  get connections(): number {
    return this.#connections.size;
  }

  /**
   * Serves one client on `transport`. `sessionOf` names the hookwise session when the first
   * call arrives (the MCP session id over HTTP); a new id otherwise.
   */
  async connect(transport: Transport, sessionOf?: () => string | undefined): Promise<GatewayConnection> {
    if (this.#closed) throw new Error("the MCP gateway is closed");
    const { Server, types } = await loadMcpServerSdk();
    const runtimeOf = () => this.#agent.runtime;
    const server = new Server(
      { name: "hookwise", version: this.#options.version },
      { capabilities: { tools: { listChanged: true } } },
    );
    const asking = new Map<string, Extra>();
    const inFlight = new Set<Promise<unknown>>();
    let session: ToolCallSession | undefined;
    const sessionFor = (extra: Extra): ToolCallSession => {
      if (session === undefined) {
        const client = clientLabel(server.getClientVersion());
        session = openToolCallSession(runtimeOf, {
          sessionId: sessionOf?.() ?? extra.sessionId ?? flatUuid(),
          record: this.#options.record !== false,
          endReason: "the MCP client disconnected",
          gateway: client === undefined ? {} : { client },
          approve: (approval) =>
            this.#elicit(server, approval, asking.get(approval.toolCallId), session!.sessionId),
        });
        this.#options.log?.(`session ${session.sessionId} (client ${client ?? "unnamed"})`);
      }
      return session;
    };
    // Nothing is listed or called before `initialize`: the session is the client's as it
    // named itself there, and its capabilities (elicitation) are known.
    const initialized = () => {
      if (server.getClientVersion() === undefined)
        throw new types.McpError(
          types.ErrorCode.InvalidRequest,
          "initialize first: the session has not begun",
        );
    };
    server.setRequestHandler(types.ListToolsRequestSchema, () => {
      initialized();
      return { tools: gatewayTools(runtimeOf()) };
    });
    server.setRequestHandler(types.CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      initialized();
      const toolCallId = `call_${flatUuid()}`;
      const name = request.params.name;
      asking.set(toolCallId, extra);
      const call = () =>
        sessionFor(extra).call({
          name,
          args: request.params.arguments ?? {},
          signal: extra.signal,
          toolCallId,
        });
      // The client asked for progress: what an upstream MCP server reports reaches it.
      const progressToken = request.params._meta?.progressToken;
      const calling =
        progressToken === undefined
          ? call()
          : withToolProgress(
              (progress) =>
                void extra
                  .sendNotification({
                    method: "notifications/progress",
                    // An upstream server's message leaves masked, as its results do.
                    params: {
                      progressToken,
                      ...progress,
                      ...(progress.message === undefined ? {} : { message: maskSecrets(progress.message) }),
                    },
                  })
                  .catch(() => {}),
              call,
            );
      inFlight.add(calling);
      try {
        const outcome = await calling;
        const runtime = runtimeOf();
        const tool = runtime.toolsByName.get(runtime.canonicalTool(name));
        return callToolResult(outcome, tool?.output?.jsonSchema?.type === "object");
      } finally {
        inFlight.delete(calling);
        asking.delete(toolCallId);
      }
    });
    let closing: Promise<void> | undefined;
    const connection: GatewayConnection = {
      server,
      get sessionId() {
        return session?.sessionId;
      },
      async drain(ms) {
        const deadline = Date.now() + ms;
        while (inFlight.size > 0 && Date.now() < deadline) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.allSettled([...inFlight]),
            new Promise((done) => {
              timer = setTimeout(done, deadline - Date.now());
            }),
          ]);
          clearTimeout(timer);
          // The answers go out right after the calls settle: let them be written.
          await new Promise((done) => setImmediate(done));
        }
      },
      close: () => {
        closing ??= (async () => {
          this.#connections.delete(connection);
          await server.close().catch(() => {});
          await session?.close();
        })();
        return closing;
      },
    };
    server.onclose = () => void connection.close();
    this.#connections.add(connection);
    await server.connect(transport);
    return connection;
  }

  /** Tells every connected client that the tool list changed (`notifications/tools/list_changed`). */
  async toolsChanged(): Promise<void> {
    await Promise.all(
      [...this.#connections].map((connection) => connection.server.sendToolListChanged().catch(() => {})),
    );
  }

  /** Closes every connection (their sessions' records are written first). */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#connections].map((connection) => connection.close()));
  }

  /** Waits for a decision in the approval inbox of a `hookwise serve` on the agent's store. */
  async #askInbox(
    server: Server,
    approval: ToolCallApproval,
    sessionId: string,
    waitMs: number,
  ): Promise<{ approved: boolean; reason?: string }> {
    const verify = inboxVerifierFromEnv();
    const mailbox = new ApprovalMailbox(this.#agent.runtime.store, verify ? { verify } : {});
    const client = clientLabel(server.getClientVersion(), false);
    const posted = await mailbox.post({
      toolName: approval.toolName,
      qualifiedName: approval.qualifiedName,
      args: approval.args,
      reason: approval.reason ?? "approval required",
      sessionId,
      waiter: `MCP gateway (client ${client ?? "unnamed"})`,
      waitMs,
    });
    this.#options.log?.(
      `"${approval.qualifiedName}" waits up to ${Math.round(waitMs / 1000)} s for approval ${posted.id} in the approval inbox`,
    );
    const decision = await mailbox.wait(posted, approval.signal);
    if (decision.approved)
      return { approved: true, reason: decision.reason ?? "approved in the approval inbox" };
    return {
      approved: false,
      reason:
        decision.by === "inbox"
          ? `"${approval.qualifiedName}" was denied in the approval inbox${decision.reason ? `: ${decision.reason}` : ""}`
          : (decision.reason ?? "denied"),
    };
  }

  /** Asks the client to approve a call (MCP elicitation), when it can be asked. */
  async #elicit(
    server: Server,
    approval: ToolCallApproval,
    extra: Extra | undefined,
    sessionId: string,
  ): Promise<{ approved: boolean; reason?: string }> {
    // The config's inbox decides when there is one: a client answering its own elicitation
    // would approve the calls it makes, which is what the inbox keeps from it.
    if (this.#options.inbox) return this.#askInbox(server, approval, sessionId, this.#options.inbox.waitMs);
    if (!server.getClientCapabilities()?.elicitation) {
      return {
        approved: false,
        reason: `approval required (${approval.reason ?? "ask"}): ${HOW_TO_APPROVE}`,
      };
    }
    const answer = await server.elicitInput(
      {
        message: approvalMessage(approval),
        requestedSchema: { type: "object", properties: {} },
      },
      // A person answers: more time than a request's default minute.
      {
        signal: approval.signal,
        timeout: ELICIT_TIMEOUT_MS,
        ...(extra ? { relatedRequestId: extra.requestId } : {}),
      },
    );
    if (answer.action === "accept") return { approved: true, reason: "approved by the MCP client's user" };
    return {
      approved: false,
      reason:
        answer.action === "decline"
          ? `the MCP client's user declined "${approval.qualifiedName}"`
          : `the MCP client's user cancelled the approval of "${approval.qualifiedName}"`,
    };
  }
}
