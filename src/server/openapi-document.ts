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

export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "hookwise server",
      version,
      description:
        "Agents of a hookwise config over HTTP: sessions, streamed runs, the AI SDK UI message stream, an approval inbox, notifications and metrics. With HOOKWISE_SERVER_TOKEN set, every endpoint but /healthz needs `Authorization: Bearer <token>`.",
    },
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
            "The body is the transport's { id, messages, trigger }; the chat id is the session. The answer is the UI message stream protocol (x-vercel-ai-ui-message-stream: v1): text, tool parts, and data parts data-run, data-hook, data-approval, data-outcome.",
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
            "400": error("Invalid body"),
            "409": busy,
            "413": error("The body is over server.body_limit"),
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
          summary: "The approval inbox: every approval a suspended run waits for",
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
            "The same checks as `hookwise resume`: the approval must be pending, unexpired, bound to the same tool and arguments; an approved call runs exactly once. A refusal runs nothing.",
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
            "403": error("A forged token"),
            "404": error("No such pending approval"),
            "409": error("The session is busy, or the approval cannot be used (binding, conflict)"),
            "410": error("The approval expired (it can still be denied)"),
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
}
