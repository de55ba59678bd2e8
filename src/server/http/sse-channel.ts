/**
 * One Server-Sent Events response: `event:` / `data:` frames written as they come, a comment
 * every 15 s so proxies keep an idle stream open, and `onClose` when either side ends it —
 * the client disconnecting (the body is cancelled) or the server closing it. Every frame
 * goes through the scrubber.
 */
import type { Scrubber } from "./secret-scrubber.js";

const KEEP_ALIVE_MS = 15_000;

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

export class SseChannel {
  readonly response: Response;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #scrub: Scrubber;
  readonly #closers: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;
  #closed = false;

  constructor(scrub: Scrubber, headers: Record<string, string> = {}) {
    this.#scrub = scrub;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#end(false),
    });
    this.#timer = setInterval(() => this.comment("keep-alive"), KEEP_ALIVE_MS);
    this.#timer.unref();
    this.response = new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Writes one event; its data is JSON. Ignored once closed. */
  send(event: string, data: unknown): void {
    this.#write(`event: ${event}\ndata: ${this.#scrub(JSON.stringify(data))}\n\n`);
  }

  /** Writes a raw `data:` frame (protocols that name no events, like the AI SDK's). */
  data(text: string): void {
    this.#write(`data: ${this.#scrub(text)}\n\n`);
  }

  comment(text: string): void {
    this.#write(`: ${text}\n\n`);
  }

  #write(frame: string): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(this.#encoder.encode(frame));
    } catch {
      this.#end(false);
    }
  }

  /** Called once, when the stream ends for any reason. */
  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closers.push(listener);
  }

  close(): void {
    this.#end(true);
  }

  #end(byServer: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    if (byServer) {
      try {
        this.#controller.close();
      } catch {
        // Already cancelled by the client.
      }
    }
    for (const listener of this.#closers.splice(0)) listener();
  }
}
