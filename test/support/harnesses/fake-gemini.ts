/**
 * A fake Gemini API for Gemini CLI: `POST …/models/<model>:streamGenerateContent` with tools is
 * an agent turn, answered as SSE with a `functionCall` part or text; other generate requests
 * (no tools: next-speaker checks, routing, summaries) get a small JSON-shaped text that those
 * checks read as "the user speaks next"; `countTokens` a small count; model listing one model.
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

const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
const sideText = JSON.stringify({ reasoning: "The answer is complete.", next_speaker: "user" });

function candidateResponse(turn: FakeTurn, id: string): Record<string, unknown> {
  const part =
    "tool" in turn ? { functionCall: { id, name: turn.tool, args: turn.input } } : { text: turn.text };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata,
    modelVersion: "gemini-2.5-pro",
    responseId: id,
  };
}

function answer(response: ServerResponse, url: string, turn: FakeTurn, id: string): void {
  if (url.includes(":streamGenerateContent")) {
    writeSse(response, [[null, candidateResponse(turn, id)]]);
    return;
  }
  writeJson(response, 200, candidateResponse(turn, id));
}

const protocol: FakeProtocol = {
  isTurn: ({ method, url, body }) =>
    method === "POST" &&
    url.includes(":streamGenerateContent") &&
    Array.isArray((body as { tools?: unknown[] } | undefined)?.tools) &&
    (body as { tools: unknown[] }).tools.length > 0,
  answerTurn: (response, turn, index, { body }) => {
    void body;
    answer(response, ":streamGenerateContent", turn, `fake_${index}`);
  },
  answerOther: (response, { method, url }) => {
    if (method === "POST" && url.includes(":countTokens"))
      return writeJson(response, 200, { totalTokens: 10 });
    if (method === "POST" && url.includes("GenerateContent"))
      return answer(response, url, { text: sideText }, "fake_side");
    if (method === "POST" && url.includes(":generateContent"))
      return answer(response, url, { text: sideText }, "fake_side");
    if (method === "GET" && url.includes("/models")) {
      return writeJson(response, 200, {
        models: [{ name: "models/gemini-2.5-pro", supportedGenerationMethods: ["generateContent"] }],
      });
    }
    writeJson(response, 404, {
      error: { code: 404, message: `fake: no ${method} ${url}`, status: "NOT_FOUND" },
    });
  },
};

/** Starts a fake Gemini API answering Gemini CLI's agent turns from `turns`. */
export function startFakeGemini(turns: readonly FakeTurn[]): Promise<FakeModelServer> {
  return startFakeModelServer(protocol, turns);
}
