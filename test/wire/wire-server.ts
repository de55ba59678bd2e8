/**
 * A local model server for wire tests: node:http on 127.0.0.1, a random port, speaking
 * OpenAI Chat Completions or Anthropic Messages, JSON or SSE (whatever the request's
 * `stream` asks). Each request takes the next queued reply; with none left it answers 500
 * "no reply queued", so a retry loop can never spin on it. Every request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { renderAnthropic } from "./anthropic-shape.js";
import { renderOpenAIChat } from "./openai-chat-shape.js";
import type { SseWriter, WireAnswer } from "./wire-shape.js";

export type WireReply =
  | WireAnswer
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> }
  /** A 200 whose body is not valid JSON (non-streaming) or whose SSE has a broken chunk. */
  | { kind: "malformed" };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, any>;
  stream: boolean;
  at: number;
}

export type WireShape = "openai-chat" | "anthropic";

export interface WireServer {
  /** The API root, e.g. http://127.0.0.1:53211/v1 (what a provider's baseURL wants). */
  readonly url: string;
  /** http://127.0.0.1:53211, without the /v1 (what OLLAMA_HOST wants). */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  reply(...replies: WireReply[]): void;
  /** Forgets recorded requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

export async function startWireServer(shape: WireShape): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  const queue: WireReply[] = [];
  const server = createServer((request, response) => {
    readBody(request)
      .then((text) => {
        let body: Record<string, any> = {};
        try {
          body = JSON.parse(text || "{}");
        } catch {
          // recorded as empty; the reply decides
        }
        const stream = body.stream === true;
        requests.push({
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body,
          stream,
          at: Date.now(),
        });
        const reply = queue.shift() ?? {
          kind: "error" as const,
          status: 500,
          body: { error: { message: "wire server: no reply queued", type: "server_error" } },
        };
        respond(shape, reply, body, stream, response);
      })
      .catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    reply: (...replies) => void queue.push(...replies),
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets of the providers' fetch would hold close() open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function respond(
  shape: WireShape,
  reply: WireReply,
  body: Record<string, any>,
  stream: boolean,
  response: ServerResponse,
): void {
  if (reply.kind === "error") {
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  if (reply.kind === "malformed" && !stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"id": "broken", "choices": [');
    return;
  }
  const answer: WireAnswer =
    reply.kind === "malformed" ? { kind: "answer", text: "never finished", breakAfter: 1 } : reply;
  const render = shape === "openai-chat" ? renderOpenAIChat : renderAnthropic;
  if (!stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(render.json(answer, body)));
    return;
  }
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const writer: SseWriter = {
    event(data, name) {
      response.write(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
    },
    raw(line) {
      response.write(`${line}\n\n`);
    },
  };
  render.sse(answer, body, writer);
  response.end();
}
