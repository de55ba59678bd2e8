/**
 * The AI SDK UI message stream endpoint, for an unmodified `useChat` (AI SDK 5, 6, 7):
 * `POST /api/chat` takes the transport's body `{ id, messages, trigger }` — the chat id is
 * the session (created on first use), the last user message is the input (the session
 * keeps the transcript, so earlier messages are not re-read) — and answers with the run as
 * UI message chunks, hook decisions as `data-hook` parts, a call awaiting a human as a
 * `tool-approval-request`. A request whose last message is the assistant's, with tool parts
 * the user answered (`addToolApprovalResponse`: state `approval-responded`), decides those
 * approvals and streams the resumed run as the rest of that message.
 * `GET /api/chat/:id/stream` is the transport's reconnect: the session's running run from
 * its start, or 204.
 */
import type { Context, Hono } from "hono";
import { uiMessageChunker } from "../../ai-sdk/to-ui-message-stream.js";
import { UI_MESSAGE_STREAM_HEADERS } from "../../ai-sdk/ui-message-chunk.js";
import { z } from "../../deps/zod.js";
import { HttpError } from "../http/http-error.js";
import { readBody } from "../http/request-body.js";
import { SseChannel } from "../http/sse-channel.js";
import type { LiveRun } from "../runs/live-runs.js";
import { startDecisions, startMessage } from "../runs/start-run.js";
import type { ServerContext } from "../server-context.js";
import { checkSessionId } from "../sessions/session-directory.js";

const part = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  state: z.string().optional(),
  approval: z
    .looseObject({ id: z.string(), approved: z.boolean().optional(), reason: z.string().optional() })
    .optional(),
});
const chatBody = z.looseObject({
  id: z.string().describe("the chat id: the hookwise session"),
  messages: z
    .array(
      z.looseObject({ role: z.string(), parts: z.array(part).optional(), content: z.unknown().optional() }),
    )
    .min(1, "no messages"),
  trigger: z.string().optional(),
  agent: z.string().optional().describe("the agent of a new session (default: the config's first)"),
});

type ChatMessage = z.output<typeof chatBody>["messages"][number];

/**
 * The approvals the user answered in the chat (`addToolApprovalResponse`): the assistant
 * message's tool parts in state `approval-responded`.
 */
function answeredApprovals(last: ChatMessage): { approval: string; approved: boolean; reason?: string }[] {
  if (last.role !== "assistant") return [];
  const answered = [];
  for (const item of last.parts ?? []) {
    const approved = item.approval?.approved;
    if (item.state !== "approval-responded" || approved === undefined) continue;
    const reason = item.approval!.reason;
    answered.push({ approval: item.approval!.id, approved, ...(reason ? { reason } : {}) });
  }
  return answered;
}

function inputOf(messages: z.output<typeof chatBody>["messages"]): string {
  const last = messages.at(-1)!;
  if (last.role !== "user") {
    throw new HttpError(
      400,
      "invalid_body",
      `messages: the last message must be the user's (or the assistant's with answered tool approvals), got role "${last.role}"`,
    );
  }
  const text = (last.parts ?? [])
    .filter((item) => item.type === "text" && typeof item.text === "string")
    .map((item) => item.text)
    .join("\n")
    .trim();
  const fallback = typeof last.content === "string" ? last.content.trim() : "";
  if (!text && !fallback)
    throw new HttpError(400, "invalid_body", "messages: the last user message has no text part");
  return text || fallback;
}

function uiStream(ctx: ServerContext, run: LiveRun, disconnected: AbortSignal, replay: boolean): Response {
  const channel = new SseChannel(ctx.scrub, UI_MESSAGE_STREAM_HEADERS as Record<string, string>);
  const chunker = uiMessageChunker();
  const stop = run.subscribe(
    {
      event: (event) => {
        if (event.type === "attempt-error") return;
        for (const chunk of chunker(event)) channel.data(JSON.stringify(chunk));
        if (event.type === "run-finish") {
          channel.data("[DONE]");
          channel.close();
        }
      },
      end: (error) => {
        if (error !== undefined) {
          channel.data(
            JSON.stringify({ type: "error", errorText: (error as Error).message ?? String(error) }),
          );
        }
        channel.close();
      },
    },
    replay,
  );
  const close = () => channel.close();
  disconnected.addEventListener("abort", close, { once: true });
  channel.onClose(() => {
    stop();
    disconnected.removeEventListener("abort", close);
    // The page went away while its run was running: stop the run (a suspended one has ended).
    if (!run.ended && ctx.runs.session(run.sessionId) === run && run.kind === "message") {
      run.controller.abort(new Error("the client disconnected"));
    }
  });
  return channel.response;
}

export function chatRoutes(app: Hono, ctx: ServerContext): void {
  app.post("/api/chat", async (c: Context) => {
    const body = await readBody(c, chatBody);
    if (body.trigger !== undefined && body.trigger !== "submit-message") {
      throw new HttpError(
        400,
        "unsupported_trigger",
        `trigger "${body.trigger}" is not supported: a hookwise session keeps its transcript in the server, so only new messages (submit-message) can be sent`,
      );
    }
    const sessionId = checkSessionId(body.id);
    // Approvals answered in the chat: the suspended run continues, streamed as the rest of
    // the message it suspended in.
    const answered = answeredApprovals(body.messages.at(-1)!);
    if (answered.length > 0) {
      const run = await startDecisions(ctx, answered, sessionId);
      return uiStream(ctx, run, c.req.raw.signal, true);
    }
    const text = inputOf(body.messages);
    if (!(await ctx.directory.get(sessionId))) {
      const { created } = await ctx.directory.create(sessionId, ctx.agents.check(body.agent));
      if (created) ctx.feed.publish({ event: "session", data: { reason: "created", sessionId } });
    }
    const run = await startMessage(ctx, { sessionId, text, ...(body.agent ? { agent: body.agent } : {}) });
    return uiStream(ctx, run, c.req.raw.signal, true);
  });

  app.get("/api/chat/:id/stream", async (c) => {
    const run = ctx.runs.session(checkSessionId(c.req.param("id")));
    if (!run || run.ended) return c.body(null, 204);
    return uiStream(ctx, run, c.req.raw.signal, true);
  });
}
