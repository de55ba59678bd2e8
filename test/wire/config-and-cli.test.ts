/**
 * Wire tests through config and the CLI: `models:` entries pointed at the local server,
 * `error` hooks with `error_type`, `models.<name>.fallback`, a missing key, exit codes,
 * and the quickstart switched to a real endpoint with `--model` / `HOOKWISE_MODEL`.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createModel, MissingApiKeyError } from "../../src/index.js";
import { runOn, SURFACES } from "../support/surfaces.js";
import { captureIO, tempDir, WIRE_KEY, WIRE_KEY_ENV, withEnv } from "./wire-fixtures.js";
import { startWireServer, type WireServer } from "./wire-server.js";

let server: WireServer;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  server = await startWireServer("openai-chat");
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await server.close();
});
beforeEach(() => server.reset());

function configFile(yaml: string): string {
  const { dir, cleanup } = tempDir({ "hookwise.yaml": yaml });
  cleanups.push(cleanup);
  return join(dir, "hookwise.yaml");
}

const errorHooks = `
runtime:
  state: { kind: memory }
  hooks:
    - id: overflow-seen
      on: error
      condition: { type: error_type, match: context_overflow }
      action: { type: log, message: "overflow: {{error.type}}: {{error.message}}", level: info }
    - id: rate-limit-seen
      on: error
      condition: { type: error_type, match: "rate_limit*" }
      action: { type: log, message: "rate limited", level: info }
`;

describe("config models over the wire", () => {
  it.each(SURFACES)(
    "%s: context_length_exceeded fires the error hook whose error_type is context_overflow",
    async (surface) => {
      const path = configFile(`
models:
  local: { provider: openai-compatible, model: wire-model, base_url: "${server.url}" }
${errorHooks}`);
      const logged: string[] = [];
      const loaded = await loadConfig(path, {
        logger: {
          debug() {},
          info: (m) => logged.push(m),
          warn: (m) => logged.push(m),
          error: (m) => logged.push(m),
        },
      });
      try {
        server.reply({
          kind: "error",
          status: 400,
          body: {
            error: {
              message:
                "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
              type: "invalid_request_error",
              param: "messages",
              code: "context_length_exceeded",
            },
          },
        });
        const agent = await loaded.createAgent();
        const { result } = await runOn(surface, agent, "a very long prompt");
        expect(server.requests).toHaveLength(1); // not retried
        expect(result.outcome).toBe("error");
        const fired = result.events
          .filter((entry) => entry.event === "model_error")
          .map((entry) => entry.hook);
        expect(fired).toEqual(["overflow-seen"]);
        expect(logged).toEqual([
          "overflow: context_overflow: This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
        ]);
        expect(result.reason).toContain("context_overflow (HTTP 400, context_length_exceeded)");
      } finally {
        await loaded.close();
      }
    },
  );

  it.each(SURFACES)(
    "%s: models.<name>.fallback takes over once the primary's retries are exhausted",
    async (surface) => {
      const path = configFile(`
models:
  primary: { provider: openai-compatible, model: big-model, base_url: "${server.url}", max_retries: 1, fallback: backup }
  backup: { provider: openai-compatible, model: small-model, base_url: "${server.url}" }
${errorHooks}
agents:
  - id: main
    model: primary
`);
      const loaded = await loadConfig(path, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
      try {
        const busy = {
          kind: "error" as const,
          status: 429,
          body: { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } },
        };
        server.reply(busy, busy, { kind: "answer", text: "answered by the backup" });
        const agent = await loaded.createAgent(undefined, { retry: { initialDelayMs: 1 } });
        const { result } = await runOn(surface, agent, "hi");
        expect(result.outcome).toBe("completed");
        expect(result.text).toBe("answered by the backup");
        expect(server.requests.map((request) => request.body.model)).toEqual([
          "big-model",
          "big-model",
          "small-model",
        ]);
        expect(result.requests.map((request) => [request.attempt, request.model])).toEqual([
          [1, "openai-compatible.chat:big-model"],
          [2, "openai-compatible.chat:big-model"],
          [3, "openai-compatible.chat:small-model"],
        ]);
        expect(result.events.filter((entry) => entry.hook === "rate-limit-seen")).toHaveLength(2);
      } finally {
        await loaded.close();
      }
    },
  );

  it("a missing key names its variable when the model is built, and nothing is sent", async () => {
    await withEnv({ OPENAI_API_KEY: undefined }, async () => {
      expect(() => createModel({ provider: "openai-chat", model: "gpt-wire", baseUrl: server.url })).toThrow(
        new MissingApiKeyError({ provider: "openai-chat", variable: "OPENAI_API_KEY", chosen: false })
          .message,
      );
      const path = configFile(`
models:
  default: { provider: openai-chat, model: gpt-wire, base_url: "${server.url}" }
runtime: { state: { kind: memory } }
`);
      const loaded = await loadConfig(path);
      try {
        await expect(loaded.createAgent()).rejects.toThrow(
          "models.default: openai-chat needs an API key: set the environment variable OPENAI_API_KEY (or name another variable with api_key_env)",
        );
      } finally {
        await loaded.close();
      }
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe("hookwise run against the wire", () => {
  it("a 401 is tried once; exit code 1 with a message naming the provider and the cause; the key is never printed", async () => {
    const path = configFile(`
models:
  default: { provider: openai-chat, model: gpt-wire, base_url: "${server.url}", api_key_env: ${WIRE_KEY_ENV} }
runtime: { state: { kind: memory } }
`);
    server.reply({
      kind: "error",
      status: 401,
      body: {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      },
    });
    const io = captureIO();
    const code = await withEnv({ [WIRE_KEY_ENV]: WIRE_KEY, HOOKWISE_MODEL: undefined }, () =>
      main(["run", path, "--prompt", "x"], io),
    );
    expect(code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${WIRE_KEY}`);
    expect(io.out()).toContain(
      "■ error after 0 steps — model openai.chat:gpt-wire failed: auth (HTTP 401, invalid_api_key): Incorrect API key provided",
    );
    expect(io.out() + io.err()).not.toContain(WIRE_KEY);
  });

  it("a missing key: exit 2 (a setup error, as a missing provider package is), one line naming the variable, no stack trace, nothing sent", async () => {
    const path = configFile(`
models:
  default: { provider: openai-chat, model: gpt-wire, base_url: "${server.url}", api_key_env: ${WIRE_KEY_ENV} }
runtime: { state: { kind: memory } }
`);
    const io = captureIO();
    const code = await withEnv({ [WIRE_KEY_ENV]: undefined, HOOKWISE_MODEL: undefined }, () =>
      main(["run", path, "--prompt", "x", "--json"], io),
    );
    expect(code).toBe(2);
    expect(io.err()).toBe(
      `hookwise: models.default: openai-chat needs an API key: set the environment variable ${WIRE_KEY_ENV} (named by api_key_env)\n`,
    );
    expect(io.out()).toBe("");
    expect(server.requests).toHaveLength(0);
  });

  it("the quickstart runs on a real endpoint with --model ollama:<model> (or HOOKWISE_MODEL)", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    cpSync(join(import.meta.dirname, "../../examples/quickstart"), dir, { recursive: true });
    const config = join(dir, "hookwise.yaml");
    const script = () =>
      server.reply(
        {
          kind: "answer",
          toolCalls: [
            { id: "c1", name: "calc_add", args: { a: 17, b: 25 } },
            { id: "c2", name: "calc_weather", args: { city: "Paris" } },
          ],
        },
        { kind: "answer", text: "17 + 25 = 42; Paris has light rain at 14 °C." },
      );

    script();
    const human = captureIO();
    const code = await withEnv({ OLLAMA_HOST: server.origin, HOOKWISE_MODEL: undefined }, () =>
      main(
        [
          "run",
          config,
          "--model",
          "ollama:llama3.2",
          "--prompt",
          "What is 17 + 25, and the weather in Paris?",
        ],
        human,
      ),
    );
    expect(code).toBe(0);
    expect(human.out()).toContain("model ollama.chat:llama3.2");
    expect(human.out()).not.toContain("SCRIPTED");
    expect(human.out()).toContain("▶ run calc_add");
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(server.requests[0]!.body.model).toBe("llama3.2");
    // The quickstart's hooks ran against the real wire: the tool result sent back carries the note.
    const toolMessages = (
      server.requests[1]!.body.messages as Array<{ role: string; content: string }>
    ).filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.content).join(" ")).toContain("42");
    expect(toolMessages.map((message) => message.content).join(" ")).toContain("°C");

    server.reset();
    script();
    const json = captureIO();
    const jsonCode = await withEnv({ OLLAMA_HOST: server.origin, HOOKWISE_MODEL: "ollama:llama3.2" }, () =>
      main(["run", config, "--prompt", "What is 17 + 25?", "--json"], json),
    );
    expect(jsonCode).toBe(0);
    const result = JSON.parse(json.out());
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("17 + 25 = 42; Paris has light rain at 14 °C.");
    expect(result.requests[0].model).toBe("ollama.chat:llama3.2");
  });

  it("an unknown provider in --model is a usage error (exit 2) naming the nearest provider", async () => {
    const path = configFile(
      "models:\n  default: scripted:./none.yaml\nruntime: { state: { kind: memory } }\n",
    );
    const io = captureIO();
    const code = await withEnv({ HOOKWISE_MODEL: undefined }, () =>
      main(["run", path, "--model", "olama:llama3.2", "--prompt", "x"], io),
    );
    expect(code).toBe(2);
    expect(io.err()).toContain('unknown model provider "olama"');
    expect(io.err()).toContain('did you mean "ollama"?');
    expect(server.requests).toHaveLength(0);
  });
});
