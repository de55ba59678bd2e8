/**
 * A real server for tests: a temp folder with a bank config (a scripted model replaying
 * the test's script, the tools of test/fixtures/server/tools.mjs, an `ask_user` policy on
 * pay, a gate on wipe, a notification at session end), served on 127.0.0.1, port 0.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import { type HookwiseServer, type ServeOptions, serve } from "../../src/server/index.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/server");

export const BANK_CONFIG = `
models:
  default: scripted:./script.yaml
toolsets:
  bank: { kind: module, path: ./tools.mjs }
runtime:
  state: { kind: memory }
  max_retries: 1
  policies:
    - { decision: ask_user, tool: bank.pay, reason: "payments need a human" }
  hooks:
    - id: no-wipe
      on: tool_call
      condition: { type: tool_name, match: "bank.wipe" }
      action: { type: gate, reason: "wiping accounts is not allowed" }
    - id: goodbye
      on: session_end
      action: { type: notify, title: "session ended", message: "session {{session.id}} ended" }
agents:
  - id: teller
    instructions: "You are a bank teller."
    tools: [bank.*]
`;

export interface TestServer {
  server: HookwiseServer;
  url: string;
  dir: string;
  logs: string[];
  /** The tool calls that really ran. */
  ledger(): string[];
  fetch(path: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    /** The scripted model's entries, as in a script file (`tool_calls`, `delay_ms`…). */
    script?: Record<string, unknown>[];
    /** Appended to the bank config (e.g. a `server:` section). */
    config?: string;
    /** Replaces the bank config. */
    replaceConfig?: string;
    /** More files beside the config (another model's script…), by name. */
    files?: Record<string, string>;
    serve?: Partial<ServeOptions>;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-server-"));
  copyFileSync(join(FIXTURES, "tools.mjs"), join(dir, "tools.mjs"));
  writeFileSync(join(dir, "script.yaml"), stringify(options.script ?? []));
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, "hookwise.yaml"),
    options.replaceConfig ?? `${BANK_CONFIG}\n${options.config ?? ""}`,
  );
  const logs: string[] = [];
  let server: HookwiseServer;
  try {
    server = await serve({
      config: join(dir, "hookwise.yaml"),
      port: 0,
      host: "127.0.0.1",
      log: (line) => logs.push(line),
      env: {},
      ...options.serve,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = server.url;
  return {
    server,
    url,
    dir,
    logs,
    ledger: () => {
      const file = join(dir, "ledger.log");
      return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
    },
    fetch: (path, init) => fetch(url + path, init),
    post: (path, body, headers = {}) =>
      fetch(url + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    close: async () => {
      try {
        await server.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Reads Server-Sent Events from a response as they arrive (an async iterator of frames). */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        let event = "message";
        const data: string[] = [];
        for (const line of frame.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data.push(line.slice(6));
        }
        if (data.length === 0) continue;
        const text = data.join("\n");
        yield { event, data: text === "[DONE]" ? text : JSON.parse(text) };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** All events until the stream ends (or `until` says stop). */
export async function collectSse(
  response: Response,
  until?: (event: SseEvent) => boolean,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(response)) {
    events.push(event);
    if (until?.(event)) break;
  }
  return events;
}
