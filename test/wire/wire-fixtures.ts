/** Shared pieces of the wire tests: models pointed at the local server, a tool, config files. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIO } from "../../src/cli/types.js";
import type { AgentEvent } from "../../src/loop/run-result.js";
import { createModel } from "../../src/models/create-model.js";
import type { LanguageModel } from "../../src/models/language-model.js";
import { tool } from "../../src/tools/tool.js";
import type { WireServer } from "./wire-server.js";

/** The fake key the tests send; it must reach the server and never the output. */
export const WIRE_KEY = "sk-wire-test-0123456789";
export const WIRE_KEY_ENV = "HOOKWISE_WIRE_KEY";

export function wireModel(
  provider: string,
  server: WireServer,
  extra: { maxRetries?: number } = {},
): LanguageModel {
  return createModel(
    { provider, model: "wire-model", baseUrl: server.url, apiKeyEnv: WIRE_KEY_ENV, ...extra },
    { env: { [WIRE_KEY_ENV]: WIRE_KEY } },
  );
}

export function addTool(calls: Array<{ a: number; b: number }> = []) {
  return {
    add: tool({
      description: "Add two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      execute: (args: { a: number; b: number }) => {
        calls.push(args);
        return args.a + args.b;
      },
    }),
  };
}

/** A temp folder with files; `cleanup` removes it. */
export function tempDir(files: Record<string, string> = {}): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-wire-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A CliIO that records what the CLI printed. */
export function captureIO(): CliIO & { out(): string; err(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const printer = (sink: string[]) => ({
    line: (text: string) => {
      sink.push(`${text}\n`);
    },
    write: (text: string) => {
      sink.push(text);
    },
  });
  return {
    stdout: printer(stdout),
    stderr: printer(stderr),
    isTTY: false,
    out: () => stdout.join(""),
    err: () => stderr.join(""),
  };
}

/** Sets environment variables for the length of `body`, then restores them. */
export async function withEnv<T>(
  vars: Record<string, string | undefined>,
  body: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

export function textOf(events: readonly AgentEvent[]): string {
  return events.map((event) => (event.type === "text-delta" ? event.delta : "")).join("");
}
