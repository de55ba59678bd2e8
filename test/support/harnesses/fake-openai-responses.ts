/**
 * A fake OpenAI Responses API for Codex CLI: `POST /v1/responses` with tools is an agent turn,
 * answered as SSE with a `function_call` output item or an assistant message; other response
 * requests (no tools: titles, summaries, compaction) get a short message; `GET /v1/models` a
 * one-model list.
 */
import type { ServerResponse } from "node:http";
import {
  type FakeModelServer,
  type FakeProtocol,
  type FakeTurn,
  startFakeModelServer,
  writeJson,
  writeSse,
} from "./fake-model-server.js";

const usage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

function outputItem(id: string, turn: FakeTurn): Record<string, unknown> {
  if ("tool" in turn) {
    return {
      type: "function_call",
      id: `fc_${id}`,
      call_id: `call_${id}`,
      name: turn.tool,
      ...(turn.namespace ? { namespace: turn.namespace } : {}),
      arguments: JSON.stringify(turn.input),
      status: "completed",
    };
  }
  return {
    type: "message",
    id: `msg_${id}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: turn.text, annotations: [] }],
  };
}

function answer(response: ServerResponse, body: unknown, turn: FakeTurn, id: string): void {
  const request = (body ?? {}) as { model?: string; stream?: boolean };
  const item = outputItem(id, turn);
  const base = {
    id: `resp_${id}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: request.model ?? "gpt-5",
  };
  if (request.stream === false) {
    writeJson(response, 200, { ...base, status: "completed", output: [item], usage });
    return;
  }
  const events: Array<readonly [string, unknown]> = [
    [
      "response.created",
      { type: "response.created", response: { ...base, status: "in_progress", output: [] } },
    ],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
  ];
  if (!("tool" in turn)) {
    events.push([
      "response.output_text.delta",
      {
        type: "response.output_text.delta",
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: turn.text,
      },
    ]);
  }
  events.push(
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    [
      "response.completed",
      { type: "response.completed", response: { ...base, status: "completed", output: [item], usage } },
    ],
  );
  writeSse(response, events);
}

const protocol: FakeProtocol = {
  isTurn: ({ method, url, body }) =>
    method === "POST" &&
    url.split("?")[0] === "/v1/responses" &&
    Array.isArray((body as { tools?: unknown[] } | undefined)?.tools) &&
    (body as { tools: unknown[] }).tools.length > 0,
  answerTurn: (response, turn, index, { body }) => answer(response, body, turn, `fake_${index}`),
  answerOther: (response, { method, url, body }) => {
    const path = url.split("?")[0]!;
    if (method === "POST" && path.startsWith("/v1/responses"))
      return answer(response, body, { text: "ok" }, "fake_side");
    if (method === "GET" && path.startsWith("/v1/models")) {
      return writeJson(response, 200, {
        object: "list",
        data: [{ id: "gpt-5", object: "model", owned_by: "fake" }],
        models: [],
      });
    }
    writeJson(response, 404, {
      error: { message: `fake: no ${method} ${path}`, type: "invalid_request_error" },
    });
  },
};

/** Starts a fake OpenAI Responses API answering Codex's agent turns from `turns`. */
export function startFakeOpenAiResponses(turns: readonly FakeTurn[]): Promise<FakeModelServer> {
  return startFakeModelServer(protocol, turns);
}
