/**
 * A `useChat` back end in one route: the route handler of a Next.js App Router
 * (`app/api/chat/route.ts`) or of Hono (`app.post("/api/chat", (c) => POST(c.req.raw))`).
 * The chat id is the hookwise session, so the agent keeps the conversation; the answer is the
 * AI SDK UI message stream, with every hook decision as a `data-hook` part.
 */

import { createAgent, defineHook, flow, scriptedModel, tool } from "hookwise";
import { toUIMessageStreamResponse } from "hookwise/ai-sdk";
import { z } from "zod";

const agent = createAgent({
  name: "forecaster",
  model: scriptedModel([
    { text: "Looking it up.", toolCalls: [{ name: "weather", args: { city: "Paris" } }] },
    { text: "It is 14 °C in Paris." },
  ]),
  tools: {
    weather: tool({
      description: "Today's weather",
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, celsius: 14 }),
    }),
  },
  hooks: [
    defineHook({
      name: "one-sentence",
      on: "model_request",
      kind: "transform",
      handler: () => flow.patch({ extraContext: ["Answer in one sentence."] }),
    }),
  ],
});

// #region route
export async function POST(request: Request): Promise<Response> {
  const { id, messages } = (await request.json()) as {
    id: string;
    messages: { role: string; parts: { type: string; text?: string }[] }[];
  };
  const last = messages.at(-1)!;
  const text = last.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  // The request's signal: a closed tab stops the run.
  return toUIMessageStreamResponse(agent.stream(text, { sessionId: id, signal: request.signal }));
}
// #endregion route
