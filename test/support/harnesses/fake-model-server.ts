/**
 * The shared body of the fake model servers the real harnesses talk to: an HTTP server on
 * 127.0.0.1 on a free port that records every request (bounded) and hands each to a protocol's
 * handler, which answers from a scripted list of turns. A turn is either a call of a tool or a
 * text answer; once the script is spent every further agent request gets a short text answer, so
 * a harness that asks again ends instead of hanging.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted model answer: call a tool with these arguments, or answer with text. */
export type FakeTurn =
  | {
      readonly tool: string;
      readonly input: Readonly<Record<string, unknown>>;
      /** The tool's namespace, for protocols that group tools (OpenAI Responses `namespace` tools). */
      readonly namespace?: string;
    }
  | { readonly text: string };

/** One request the fake received. */
export interface RecordedRequest {
  readonly method: string;
  /** The path with its query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body parsed as JSON, or its text where it is not JSON. */
  readonly body: unknown;
  /** The raw body text. */
  readonly text: string;
  /** Whether this request was an agent turn (taken from the script) rather than a side request. */
  readonly turn: boolean;
}

export interface FakeModelServer {
  /** Where to point the harness, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** Every request received so far, in order (at most 500 are kept). */
  readonly requests: readonly RecordedRequest[];
  /** The agent-turn requests only, in order. */
  turnRequests(): readonly RecordedRequest[];
  close(): Promise<void>;
}

/** What a protocol does with one request: whether it is an agent turn, and how to answer it. */
export interface FakeProtocol {
  /** Whether the request is an agent turn (it consumes the next scripted turn). */
  isTurn(request: { method: string; url: string; body: unknown }): boolean;
  /** Answer an agent turn with the scripted turn (a final text once the script is spent). */
  answerTurn(response: ServerResponse, turn: FakeTurn, index: number, request: { body: unknown }): void;
  /** Answer anything else sensibly (token counts, model lists, title generation ...). */
  answerOther(response: ServerResponse, request: { method: string; url: string; body: unknown }): void;
}

const maxRecorded = 500;
const maxBody = 20 * 1024 * 1024;

/** Writes server-sent events: one `event:`/`data:` pair each (`event` omitted where null). */
export function writeSse(
  response: ServerResponse,
  events: ReadonlyArray<readonly [string | null, unknown]>,
): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const [event, data] of events) {
    if (event !== null) response.write(`event: ${event}\n`);
    response.write(`data: ${JSON.stringify(data)}\n\n`);
  }
  response.end();
}

export function writeJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        reject(new Error(`request body over ${maxBody} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Starts a fake model server speaking `protocol`, answering agent turns from `turns` in order. */
export async function startFakeModelServer(
  protocol: FakeProtocol,
  turns: readonly FakeTurn[],
  finalText = "Done.",
): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    readBody(request).then(
      (text) => {
        let body: unknown = text;
        try {
          body = text === "" ? undefined : JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        const seen = { method: request.method ?? "GET", url: request.url ?? "/", body };
        const turn = protocol.isTurn(seen);
        if (requests.length < maxRecorded) requests.push({ ...seen, headers: request.headers, text, turn });
        try {
          if (turn) {
            const index = next++;
            protocol.answerTurn(response, turns[index] ?? { text: finalText }, index, seen);
          } else {
            protocol.answerOther(response, seen);
          }
        } catch (error) {
          writeJson(response, 500, { error: { message: String(error) } });
        }
      },
      (error: unknown) => writeJson(response, 400, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    turnRequests: () => requests.filter((request) => request.turn),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
