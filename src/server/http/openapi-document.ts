/**
 * `GET /openapi.json`: the API as an OpenAPI 3.1 document. Written out rather than derived,
 * and kept true by a test that compares its paths with the app's routes and validates it.
 */

const json = (schema: object, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
const sse = (description: string) => ({
  description,
  content: { "text/event-stream": { schema: { type: "string" } } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => json(ref("Error"), description);
const idParam = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
const body = (schema: object, required = true) => ({
  required,
  content: { "application/json": { schema } },
});

const busy = error(
  "The session is running another message (after `server.busy_wait`), or waits on approvals",
);

/** Each operation's id, by `method path`. */
const OPERATION_IDS: Record<string, string> = {
  "get /healthz": "getHealth",
  "get /metrics": "getMetrics",
  "get /openapi.json": "getOpenApiDocument",
  "get /agents": "listAgents",
  "get /sessions": "listSessions",
  "post /sessions": "createSession",
  "get /sessions/{id}": "getSession",
  "delete /sessions/{id}": "endSession",
  "post /sessions/{id}/messages": "sendMessage",
  "get /sessions/{id}/events": "followSessionEvents",
  "get /runs/{runId}": "getRunTimeline",
  "post /api/chat": "chat",
  "get /api/chat/{id}/stream": "reconnectChat",
  "get /approvals": "listApprovals",
  "post /approvals/{id}": "decideApproval",
  "post /hooks/{harness}": "answerHarnessHook",
  "get /hooks/sessions": "listHarnessSessions",
  "get /hooks/sessions/{id}": "getHarnessSession",
  "get /gateway/sessions": "listGatewaySessions",
  "get /gateway/sessions/{id}": "getGatewaySession",
  "get /events": "followEvents",
};

/** Operations that read a JSON body: a body that is not JSON, too large or malformed is refused. */
const WITH_BODY = new Set(["createSession", "sendMessage", "chat", "decideApproval"]);
/** Operations with a session or chat id in their path: an id that cannot be one is a 400. */
const WITH_SESSION_ID = new Set([
  "getSession",
  "endSession",
  "sendMessage",
  "followSessionEvents",
  "reconnectChat",
]);
/** Operations that start or continue a run: refused while the server drains. */
const STARTS_RUN = new Set(["sendMessage", "chat", "decideApproval"]);

/**
 * Gives every operation its id and the answers every endpoint can give besides its own:
 * 401 (a token is set and missing or wrong), 421 (no token, and the request named a host
 * that is not loopback), 500, and by what it does 400 / 413 / 415 / 503.
 */
function completeOperations(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === "parameters") continue;
      const id = OPERATION_IDS[`${method} ${path}`];
      if (id === undefined) throw new Error(`openapi-document: no operationId for ${method} ${path}`);
      const responses = operation.responses as Record<string, unknown>;
      const add = (status: string, description: string) => {
        responses[status] ??= error(description);
      };
      if (WITH_BODY.has(id)) {
        add("400", "The body does not match the operation's schema, or is not valid JSON");
        add("413", "The body is over server.body_limit");
        add("415", "The body is not sent as JSON (Content-Type: application/json)");
      }
      if (WITH_SESSION_ID.has(id)) add("400", "The id cannot be a session id");
      if (STARTS_RUN.has(id)) add("503", "The server is shutting down; retry on another instance");
      if (path !== "/healthz")
        add("401", "The server has a token and the request's bearer token is missing or wrong");
      add("421", "No token is set and the request was addressed to a host that is not loopback");
      add("500", "An internal error (see the server's log)");
      operation.operationId = id;
      // Responses in status order, as a reader looks them up.
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
}

/** `serverUrl`: where the document was asked for (its origin); the default address otherwise. */
export function openApiDocument(
  version: string,
  serverUrl = "http://127.0.0.1:8787",
): Record<string, unknown> {
  const document = {
    openapi: "3.1.0",
    info: {
      title: "hookwise server",
      version,
      license: { name: "MIT", identifier: "MIT" },
      description:
        "Agents of a hookwise config over HTTP: sessions, streamed runs, the AI SDK UI message stream, an approval inbox, notifications and metrics. With HOOKWISE_SERVER_TOKEN set, every endpoint but /healthz needs `Authorization: Bearer <token>`.",
    },
    servers: [{ url: serverUrl, description: "This hookwise serve" }],
    security: [{ bearerAuth: [] }, {}],
    paths: {
      "/healthz": {
        get: {
          summary: "Liveness: ok, or draining during a shutdown",
          security: [],
          responses: { "200": json(ref("Health")), "503": json(ref("Health"), "Shutting down") },
        },
      },
      "/metrics": {
        get: {
          summary: "Prometheus metrics (text format 0.0.4)",
          responses: {
            "200": { description: "OK", content: { "text/plain": { schema: { type: "string" } } } },
          },
        },
      },
      "/openapi.json": { get: { summary: "This document", responses: { "200": json({ type: "object" }) } } },
      "/agents": {
        get: {
          summary: "The config's agents",
          responses: {
            "200": json({
              type: "object",
              properties: { agents: { type: "array", items: ref("AgentInfo") } },
            }),
          },
        },
      },
      "/sessions": {
        get: {
          summary: "Sessions, most recently active first",
          responses: {
            "200": json({
              type: "object",
              properties: { sessions: { type: "array", items: ref("SessionSummary") } },
            }),
          },
        },
        post: {
          summary: "Create a session",
          requestBody: body(
            {
              type: "object",
              additionalProperties: false,
              properties: {
                agent: { type: "string" },
                id: { type: "string", pattern: "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$" },
              },
            },
            false,
          ),
          responses: {
            "201": json(ref("SessionSummary"), "Created"),
            "400": error("Unknown agent or invalid id"),
            "409": error("The id exists"),
          },
        },
      },
      "/sessions/{id}": {
        parameters: [idParam("id", "The session id")],
        get: {
          summary: "A session: transcript, status, pending approvals, runs",
          responses: { "200": json(ref("Session")), "404": error("Unknown session") },
        },
        delete: {
          summary: "End a session: session_end fires, the transcript is deleted",
          responses: { "200": json({ type: "object" }), "404": error("Unknown session"), "409": busy },
        },
      },
      "/sessions/{id}/messages": {
        parameters: [idParam("id", "The session id")],
        post: {
          summary:
            "Send a message: the run streams as SSE, or answers its RunResult with Accept: application/json",
          description:
            "SSE events are named after the run's stream events (run-start, step-start, text-delta, tool-call, tool-execution-start, tool-result, hook, step-finish, run-finish) plus attempt-error. A suspended run's stream stays open and carries on with the run resumed from the approval inbox. A client that disconnects aborts its running run.",
          requestBody: body({
            type: "object",
            additionalProperties: false,
            required: ["text"],
            properties: { text: { type: "string", minLength: 1 }, agent: { type: "string" } },
          }),
          responses: {
            "200": {
              description: "The run",
              content: {
                "text/event-stream": { schema: { type: "string" } },
                "application/json": { schema: ref("RunResult") },
              },
            },
            "400": error("Invalid body or unknown agent"),
            "404": error("Unknown session"),
            "409": busy,
            "413": error("The body is over server.body_limit"),
            "415": error("The body is not JSON"),
            "503": error("The server is shutting down"),
          },
        },
      },
      "/sessions/{id}/events": {
        parameters: [idParam("id", "The session id")],
        get: {
          summary: "The events of the session's runs as they happen (resumed runs included)",
          responses: { "200": sse("The runs' events"), "404": error("Unknown session") },
        },
      },
      "/runs/{runId}": {
        parameters: [idParam("runId", "The run id")],
        get: {
          summary: "A run's timeline: its events in order (text merged per step) and how it ended",
          responses: { "200": json(ref("RunTimeline")), "404": error("Unknown run") },
        },
      },
      "/api/chat": {
        post: {
          summary: "AI SDK UI message stream (useChat's DefaultChatTransport)",
          description:
            "The body is the transport's { id, messages, trigger }; the chat id is the session. The answer is the UI message stream protocol (x-vercel-ai-ui-message-stream: v1): text, tool parts, and data parts data-run, data-hook (each decision, naming the tool call it was about), data-approval, data-outcome. A call waiting for a human is a tool-approval-request; a body whose last message is the assistant's with tool parts in state approval-responded (the client's addToolApprovalResponse) decides those approvals, and the answer continues that message with the resumed run.",
          requestBody: body({
            type: "object",
            required: ["id", "messages"],
            properties: {
              id: { type: "string" },
              messages: { type: "array", items: { type: "object" } },
              trigger: { type: "string" },
              agent: { type: "string" },
            },
          }),
          responses: {
            "200": sse("The UI message stream"),
            "400": error("Invalid body, unsupported trigger, or no user message"),
            "403": error("A forged approval token"),
            "404": error("An answered approval is no longer pending"),
            "409": busy,
            "410": error("An approved approval expired (it can still be denied)"),
          },
        },
      },
      "/api/chat/{id}/stream": {
        parameters: [idParam("id", "The chat (session) id")],
        get: {
          summary: "Reconnect to the chat's running run (its UI message stream from the start)",
          responses: { "200": sse("The UI message stream"), "204": { description: "No run is running" } },
        },
      },
      "/approvals": {
        get: {
          summary:
            "The approval inbox: every approval a suspended run waits for, and the calls hookwise hook and hookwise mcp processes wait on (runtime.approvals: inbox)",
          responses: {
            "200": json({
              type: "object",
              properties: { approvals: { type: "array", items: ref("Approval") } },
            }),
          },
        },
      },
      "/approvals/{id}": {
        parameters: [idParam("id", "The approval id (or a signed approval token)")],
        post: {
          summary: "Approve or deny: the run continues in the server (SSE, or its RunResult as JSON)",
          description:
            "The same checks as `hookwise resume`: the approval must be pending, unexpired, bound to the same tool and arguments; an approved call runs exactly once. A refusal runs nothing. For a call a hook or gateway process waits on (an approval with `waiter`), the decision is that process's answer: `{ approval, decision, sessionId }` as JSON; only the first decision counts (409 `approval_decided` after it, 410 `approval_expired` once the process gave up).",
          requestBody: body({
            type: "object",
            additionalProperties: false,
            required: ["decision"],
            properties: { decision: { enum: ["approve", "deny"] }, reason: { type: "string" } },
          }),
          responses: {
            "200": {
              description: "The resumed run",
              content: {
                "text/event-stream": { schema: { type: "string" } },
                "application/json": { schema: ref("RunResult") },
              },
            },
            "400": error("Invalid body"),
            "403": error("A forged token"),
            "404": error("No such pending approval"),
            "409": error("The session is busy, or the approval cannot be used (binding, conflict)"),
            "410": error("The approval expired (it can still be denied)"),
          },
        },
      },
      "/hooks/sessions": {
        get: {
          summary: "The coding-agent harnesses' sessions whose hook events are recorded, most recent first",
          responses: {
            "200": {
              description: "`{ sessions: [{ id, harness, events, lastActiveAt, lastEvent, lastDecision }] }`",
              content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
            },
          },
        },
      },
      "/hooks/sessions/{id}": {
        parameters: [idParam("id", "The harness's session id")],
        get: {
          summary: "A harness session's hook events, each with its decision, oldest first",
          responses: {
            "200": {
              description:
                "`{ id, harness, events: [{ runId, at, event, about, decision, reason?, hook? }] }`",
              content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
            },
            "404": error("No harness session with this id is recorded"),
          },
        },
      },
      "/gateway/sessions": {
        get: {
          summary:
            "The sessions of the MCP clients that called tools through `hookwise mcp` on this store, most recent first",
          responses: {
            "200": {
              description:
                "`{ sessions: [{ id, agent, client?, calls, lastActiveAt, lastTool, lastDecision }] }`",
              content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
            },
          },
        },
      },
      "/gateway/sessions/{id}": {
        parameters: [idParam("id", "The MCP gateway's session id")],
        get: {
          summary:
            "An MCP gateway session's tool calls, oldest first: each with its arguments, decision, hooks and result",
          responses: {
            "200": {
              description:
                "`{ id, agent, client?, calls: [{ runId, at, tool, args, ranArgs?, decision, hook?, reason?, summary, result?, isError, hooks: [{ hook, event, effect, reason? }] }] }`",
              content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
            },
            "404": error("No MCP gateway session with this id is recorded"),
          },
        },
      },
      "/hooks/{harness}": {
        parameters: [
          {
            name: "harness",
            in: "path",
            required: true,
            description: "The coding-agent harness that sent the event",
            schema: { enum: ["claude", "codex", "gemini", "cursor"] },
          },
        ],
        post: {
          summary: "Answer a coding-agent harness's hook event with the served config",
          description:
            "The event `hookwise hook` reads on stdin, decided by the config's hooks and policies and recorded in the session, as `hookwise hook` would. The 200 body is what the hook prints on stdout (empty: nothing to say). A request the server would not answer exactly as `hookwise hook` would is refused, and the hook command written by `hookwise setup --server` then decides itself: another config (`x-hookwise-config`), a config changed on disk since the server loaded it, a call that would wait in the approval inbox.",
          parameters: [
            {
              name: "x-hookwise-config",
              in: "header",
              required: false,
              description:
                "The config file the hook would load itself: refused (409) when it is not the served one",
              schema: { type: "string" },
            },
          ],
          requestBody: body({ type: "object", additionalProperties: true }),
          responses: {
            "200": {
              description: "The harness's answer, in its own format",
              content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
            },
            "400": error("Not an event this harness sends"),
            "404": error("No such harness"),
            "409": error("Another config, a changed config, a harness it does not guard, or an inbox wait"),
            "413": error("The event is larger than the body limit"),
            "415": error("The body is not JSON"),
            "422": error("The answer is an exit code: the hook command answers it itself"),
          },
        },
      },
      "/events": {
        get: {
          summary: "Notifications (notify, lsp_diagnose) and inbox / session changes, as SSE",
          parameters: [
            {
              name: "session",
              in: "query",
              required: false,
              description: "Only this session's",
              schema: { type: "string" },
            },
          ],
          responses: { "200": sse("Events named notification, inbox, session") },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" } },
            },
          },
        },
        Health: {
          type: "object",
          properties: {
            status: { enum: ["ok", "draining"] },
            agents: { type: "array", items: { type: "string" } },
          },
        },
        AgentInfo: {
          type: "object",
          properties: {
            id: { type: "string" },
            model: { type: "string" },
            scripted: { type: "boolean" },
            instructions: { type: ["string", "null"] },
          },
        },
        SessionSummary: {
          type: "object",
          properties: {
            id: { type: "string" },
            agent: { type: "string" },
            title: { type: ["string", "null"] },
            status: { enum: ["running", "waiting", "idle"] },
            createdAt: { type: "string", format: "date-time" },
            lastActiveAt: { type: "string", format: "date-time" },
          },
        },
        Session: {
          allOf: [
            ref("SessionSummary"),
            {
              type: "object",
              properties: {
                messages: { type: "array", items: { type: "object" } },
                pendingApprovals: { type: "array", items: ref("Approval") },
                runs: { type: "array", items: { type: "object" } },
              },
            },
          ],
        },
        Approval: {
          type: "object",
          properties: {
            id: { type: "string" },
            runId: { type: "string" },
            sessionId: { type: "string" },
            agent: { type: "string" },
            toolName: { type: "string" },
            qualifiedName: { type: "string" },
            toolCallId: { type: "string" },
            args: {},
            reason: { type: "string" },
            expiresAt: { type: "string", format: "date-time" },
            input: { type: "string" },
            suspendedAt: { type: "string", format: "date-time" },
            waiter: {
              type: "string",
              description:
                "Who waits for this decision, for a hook or gateway call (no runId then): Claude Code (hookwise hook), MCP gateway (client …)",
            },
            createdAt: { type: "string", format: "date-time" },
          },
        },
        RunResult: {
          type: "object",
          description:
            "hookwise's RunResult: outcome, text, reason, hook, messages, steps, requests, events, usage, runId, sessionId, approvals",
          properties: {
            outcome: { enum: ["completed", "terminated", "suspended", "max_steps", "error"] },
            text: { type: "string" },
            reason: { type: "string" },
            hook: { type: "string" },
            runId: { type: "string" },
            sessionId: { type: "string" },
            events: { type: "array", items: ref("HookTraceEntry") },
          },
        },
        HookTraceEntry: {
          type: "object",
          properties: {
            event: { type: "string" },
            hook: { type: "string" },
            kind: { enum: ["inspect", "decide", "transform"] },
            effect: { type: "string" },
            toolCallId: {
              type: "string",
              description: "The tool call the firing was about, when it was about one",
            },
            toolName: { type: "string", description: "That call's tool, as the model named it" },
            detail: {},
          },
        },
        RunTimeline: {
          type: "object",
          properties: {
            runId: { type: "string" },
            sessionId: { type: "string" },
            agent: { type: "string" },
            input: { type: "string" },
            live: { type: "boolean" },
            outcome: { type: "string" },
            events: { type: "array", items: { type: "object" } },
          },
        },
      },
    },
  };
  completeOperations(document.paths as never);
  return document;
}
