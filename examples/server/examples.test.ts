/**
 * Runs examples/server/chat-route.ts the way `useChat` calls it (DefaultChatTransport from
 * the AI SDK, over real HTTP), and checks each TypeScript block of docs/server.md is a region
 * of it, word for word.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { POST } from "./chat-route.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("chat-route", () => {
  it("answers useChat's transport with text, the tool part and hook data parts", async () => {
    // A minimal Node adapter for the route (what Next.js or Hono do).
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const response = await POST(
        new Request(`http://localhost${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      for await (const chunk of response.body!) res.write(chunk);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const transport = new DefaultChatTransport({ api: `http://127.0.0.1:${port}/api/chat` });
      const stream = await transport.sendMessages({
        chatId: "chat-7",
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] }],
        trigger: "submit-message",
        messageId: undefined,
        abortSignal: undefined,
      });
      let message: UIMessage | undefined;
      for await (const item of readUIMessageStream({ stream })) message = item;
      const texts = message!.parts
        .filter((part) => part.type === "text")
        .map((part) => (part as { text: string }).text);
      expect(texts).toEqual(["Looking it up.", "It is 14 °C in Paris."]);
      expect(message!.parts).toContainEqual(
        expect.objectContaining({
          type: "tool-weather",
          state: "output-available",
          output: { city: "Paris", celsius: 14 },
        }),
      );
      expect(message!.parts).toContainEqual(
        expect.objectContaining({
          type: "data-hook",
          data: expect.objectContaining({ hook: "one-sentence", effect: "patch" }),
        }),
      );
      expect(message!.parts).toContainEqual(
        expect.objectContaining({
          type: "data-outcome",
          data: expect.objectContaining({ sessionId: "chat-7" }),
        }),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("docs/server.md", () => {
  it("every TypeScript block is a region of the example, word for word", () => {
    const doc = readFileSync(join(ROOT, "docs/server.md"), "utf8");
    const source = readFileSync(join(ROOT, "examples/server/chat-route.ts"), "utf8");
    const regions = [...source.matchAll(/\/\/ #region (\S+)\n([\s\S]*?)\n\/\/ #endregion \1/g)].map(
      ([, , body]) => body!,
    );
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)\n```/g)].map(([, body]) => body!);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(regions).toContain(block);
  });
});
