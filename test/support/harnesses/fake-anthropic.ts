/**
 * A fake Anthropic Messages API for Claude Code: `POST /v1/messages` with tools is an agent turn,
 * answered as SSE with a `tool_use` block or text; other message requests (title or topic
 * generation, quota checks: no tools) get a short text; `count_tokens` a small count.
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

const model = "claude-sonnet-4-5";
const usage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function messageEvents(id: string, requestModel: string, turn: FakeTurn): Array<readonly [string, unknown]> {
  const start = {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model: requestModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  };
  const block: Array<readonly [string, unknown]> =
    "tool" in turn
      ? [
          [
            "content_block_start",
            {
              type: "content_block_start",
              index: 0,
              content_block: { type: "tool_use", id: `toolu_${id}`, name: turn.tool, input: {} },
            },
          ],
          [
            "content_block_delta",
            {
              type: "content_block_delta",
              index: 0,
              delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) },
            },
          ],
        ]
      : [
          [
            "content_block_start",
            { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
          ],
          [
            "content_block_delta",
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: turn.text } },
          ],
        ];
  return [
    ["message_start", start],
    ...block,
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: "tool" in turn ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
}

function answer(response: ServerResponse, body: unknown, turn: FakeTurn, id: string): void {
  const request = (body ?? {}) as { stream?: boolean; model?: string };
  const requestModel = request.model ?? model;
  if (request.stream) {
    writeSse(response, messageEvents(id, requestModel, turn));
    return;
  }
  const content =
    "tool" in turn
      ? [{ type: "tool_use", id: `toolu_${id}`, name: turn.tool, input: turn.input }]
      : [{ type: "text", text: turn.text }];
  writeJson(response, 200, {
    id,
    type: "message",
    role: "assistant",
    model: requestModel,
    content,
    stop_reason: "tool" in turn ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage,
  });
}

const protocol: FakeProtocol = {
  isTurn: ({ method, url, body }) =>
    method === "POST" &&
    url.split("?")[0] === "/v1/messages" &&
    Array.isArray((body as { tools?: unknown[] } | undefined)?.tools) &&
    (body as { tools: unknown[] }).tools.length > 0,
  answerTurn: (response, turn, index, { body }) => answer(response, body, turn, `msg_fake_${index}`),
  answerOther: (response, { method, url, body }) => {
    const path = url.split("?")[0]!;
    if (method === "POST" && path === "/v1/messages/count_tokens")
      return writeJson(response, 200, { input_tokens: 10 });
    if (method === "POST" && path === "/v1/messages")
      return answer(response, body, { text: "ok" }, "msg_fake_side");
    if (method === "GET" && path.startsWith("/v1/models")) {
      return writeJson(response, 200, {
        data: [{ type: "model", id: model, display_name: model }],
        has_more: false,
      });
    }
    writeJson(response, 404, {
      type: "error",
      error: { type: "not_found_error", message: `fake: no ${method} ${path}` },
    });
  },
};

/** Starts a fake Anthropic Messages API answering Claude Code's agent turns from `turns`. */
export function startFakeAnthropic(turns: readonly FakeTurn[]): Promise<FakeModelServer> {
  return startFakeModelServer(protocol, turns);
}
