/**
 * One redaction boundary for every toolset and every model. An MCP server started with
 * `${MCP_TOKEN}` gives the token back — in a result (in every spelling: plain, base64,
 * percent-encoded, upper-cased, JSON-escaped, as an object key), in an `isError` result and
 * in a thrown error — and the scripted model repeats it; a provider model repeats its own
 * API key. Neither the raw value nor any of its spellings is in what the CLI prints (human,
 * `--json`, stderr), in the SQLite file's bytes, in `history`, in `trace`, nor in the spans
 * recorded with `record_outputs`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { cli } from "../support/cli.js";
import { startWireServer, type WireServer } from "../wire/wire-server.js";

const TOKEN = "mcp-T0k/en+Se=cr\\et-7731";
const TOKEN_ENV = "HOOKWISE_TEST_MCP_TOKEN";
const FIXTURE = resolve(import.meta.dirname, "../fixtures/mcp/leaky-server.mjs");

/** Every spelling of `secret` that must not be found. */
function spellings(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
    secret.toUpperCase(),
    secret.toLowerCase(),
  ];
}

function expectNoSecret(where: string, text: string, secret = TOKEN): void {
  for (const spelling of spellings(secret)) {
    if (text.includes(spelling)) throw new Error(`${where} holds ${JSON.stringify(spelling)}`);
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-secret-boundary-"));
  process.env[TOKEN_ENV] = TOKEN;
});
afterEach(() => {
  delete process.env[TOKEN_ENV];
  rmSync(dir, { recursive: true, force: true });
});

/** Every byte of the state folder (the SQLite database and its journal files). */
function stored(): string {
  const folder = join(dir, ".hookwise");
  if (!existsSync(folder)) return "";
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name)).toString("latin1"))
    .join("\n");
}

function mcpConfig(extra = ""): string {
  writeFileSync(
    join(dir, "script.yaml"),
    [
      "- tool_calls:",
      "    - { name: leaky_leak, args: {} }",
      "    - { name: leaky_leak_error, args: {} }",
      "    - { name: leaky_leak_throw, args: {} }",
      // The model repeats the token it was shown, in one piece and split across deltas.
      `- text_deltas: ${JSON.stringify(["I saw ", TOKEN.slice(0, 7), TOKEN.slice(7), " and ", TOKEN, "."])}`,
      "",
    ].join("\n"),
  );
  const file = join(dir, "hookwise.yaml");
  writeFileSync(
    file,
    [
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      `  leaky: { kind: mcp, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}],`,
      `           env: { LEAKY_TOKEN: "\${${TOKEN_ENV}}" } }`,
      extra,
      "agents:",
      "  - { id: main, tools: [leaky.*] }",
      "",
    ].join("\n"),
  );
  return file;
}

describe("an MCP server that gives back the token it was started with", () => {
  it("run (human and --json), stderr, the SQLite file, history and trace hold no spelling of it", async () => {
    const file = mcpConfig();
    const human = await cli(["run", file, "--prompt", "leak it", "--session", "s1"]);
    expect(human.code).toBe(0);
    // The tools did run and answer: masked, named after the variable.
    expect(human.stdout).toContain(`[redacted ${TOKEN_ENV}]`);
    expectNoSecret("run's stdout", human.stdout);
    expectNoSecret("run's stderr", human.stderr);

    const json = await cli(["run", file, "--prompt", "leak it", "--session", "s2", "--json"]);
    const result = JSON.parse(json.stdout) as { steps: { toolResults: { isError: boolean }[] }[] };
    expect(result.steps[0]!.toolResults.map((call) => call.isError)).toEqual([false, true, true]);
    expectNoSecret("--json", json.stdout);
    expectNoSecret("--json's stderr", json.stderr);

    const text = stored();
    expect(text.length).toBeGreaterThan(0);
    expectNoSecret("the state database", text);
    for (const session of ["s1", "s2"]) {
      for (const command of [
        ["history", file, "--session", session],
        ["history", file, "--session", session, "--json"],
        ["trace", file, "--session", session],
        ["trace", file, "--session", session, "--json"],
      ]) {
        const out = await cli(command);
        expect(out.code).toBe(0);
        expect(out.stdout).toContain("[redacted");
        expectNoSecret(command.join(" "), out.stdout + out.stderr);
      }
    }
  }, 60_000);

  it("spans recorded with record_outputs (and record_inputs) hold no spelling of it", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    const loaded = await loadConfig(
      mcpConfig("runtime: { telemetry: { record_outputs: true, record_inputs: true } }"),
      {
        store: new MemoryStore(),
      },
    );
    try {
      const agent = await loaded.createAgent();
      const events: unknown[] = [];
      for await (const event of agent.stream("leak it")) events.push(event);
      const result = await agent.run("leak it again");
      expectNoSecret("stream events", JSON.stringify(events));
      expectNoSecret("the RunResult", JSON.stringify(result));
      const spans = exporter.getFinishedSpans();
      expect(spans.length).toBeGreaterThan(0);
      const attributes = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]));
      expect(attributes).toContain("[redacted");
      expectNoSecret("spans", attributes);
    } finally {
      await loaded.close();
      trace.disable();
      await provider.shutdown();
    }
  }, 60_000);
});

describe("a provider model that repeats its own API key", () => {
  const KEY = "sk-prov-Rep3ats/its+key=9921";
  const KEY_ENV = "HOOKWISE_TEST_PROVIDER_KEY";
  let server: WireServer;
  beforeAll(async () => {
    server = await startWireServer("openai-chat");
  });
  afterAll(() => server.close());

  it("is masked in run's output and in what is stored (SQLite, history, trace)", async () => {
    process.env[KEY_ENV] = KEY;
    try {
      const file = join(dir, "hookwise.yaml");
      writeFileSync(
        file,
        `models:\n  default: { provider: openai-compatible, model: echo, base_url: "${server.url}", api_key_env: ${KEY_ENV} }\n`,
      );
      server.reply(
        { kind: "answer", text: `Your key is ${KEY}, upper ${KEY.toUpperCase()}.` },
        { kind: "answer", text: `Again: ${encodeURIComponent(KEY)}` },
      );
      const human = await cli(["run", file, "--prompt", "my key?", "--session", "k1"]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(`[redacted ${KEY_ENV}]`);
      const json = await cli(["run", file, "--prompt", "my key?", "--session", "k2", "--json"]);
      expect(json.code).toBe(0);
      expectNoSecret("run", human.stdout + human.stderr + json.stdout + json.stderr, KEY);
      expectNoSecret("the state database", stored(), KEY);
      for (const session of ["k1", "k2"]) {
        const history = await cli(["history", file, "--session", session, "--json"]);
        const timeline = await cli(["trace", file, "--session", session, "--json"]);
        expect(history.stdout).toContain(`[redacted ${KEY_ENV}]`);
        expectNoSecret("history and trace", history.stdout + timeline.stdout, KEY);
      }
    } finally {
      delete process.env[KEY_ENV];
    }
  }, 60_000);
});
