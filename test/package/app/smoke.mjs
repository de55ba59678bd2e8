// What an app does with hookwise and the peers it installed: a hookwise agent and an AI SDK
// loop on the app's provider package (answered by a fake fetch, no network), the other
// providers' models, the SQLite and Redis stores, an MCP toolset through the CLI, an OpenAPI
// toolset, the exact tokenizer and the HTTP server. Exits non-zero on the first failure.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, tool, wrapLanguageModel } from "ai";
import {
  createAgent,
  defineHook,
  FileStore,
  flow,
  openapiToolset,
  RedisStore,
  SqliteStore,
  serve,
  useExactTokenizer,
} from "hookwise";
import { hookwiseHooks, hookwiseMiddleware, hookwiseTools } from "hookwise/ai-sdk";
import { z } from "zod";

function completion({ text, call }) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [
      {
        index: 0,
        finish_reason: call ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content: text ?? null,
          ...(call
            ? {
                tool_calls: [
                  {
                    id: "call_1",
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.args) },
                  },
                ],
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}

/** An OpenAI chat model whose fetch answers `answers` in turn. */
function fakeModel(answers) {
  let index = 0;
  const fetch = async () =>
    new Response(JSON.stringify(completion(answers[Math.min(index++, answers.length - 1)])), {
      headers: { "content-type": "application/json" },
    });
  return createOpenAI({ apiKey: "sk-test", fetch }).chat("gpt-test");
}

const answers = [{ call: { name: "read_file", args: { path: ".env" } } }, { text: "I may not read .env." }];
const noSecrets = defineHook({
  name: "no-secrets",
  on: "tool_call",
  kind: "decide",
  match: "read_file",
  handler: (event) => (event.args.path.includes(".env") ? flow.deny("secrets are off limits") : undefined),
});

// 1. hookwise's loop on the app's provider.
let reads = 0;
const readFile = tool({
  description: "Read a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => {
    reads++;
    return `contents of ${path}`;
  },
});
const agent = createAgent({ model: fakeModel(answers), tools: { read_file: readFile }, hooks: [noSecrets] });
const result = await agent.run("Summarise .env");
assert.equal(result.outcome, "completed");
assert.equal(result.text, "I may not read .env.");
assert.equal(reads, 0, "the denied tool ran");

// 2. The AI SDK's loop with hookwise's middleware and tools.
const hooks = hookwiseHooks({ hooks: [noSecrets] });
const sdk = await generateText({
  model: wrapLanguageModel({ model: fakeModel(answers), middleware: hookwiseMiddleware(hooks) }),
  tools: hookwiseTools({ read_file: readFile }, hooks),
  prompt: "Summarise .env",
  stopWhen: stepCountIs(3),
});
assert.equal(sdk.text, "I may not read .env.");
assert.equal(reads, 0, "the denied tool ran in the AI SDK's loop");

// 3. The stores: SQLite on the app's own better-sqlite3 (SMOKE_SQLITE=1: its native module is built).
const sqlite = process.env.SMOKE_SQLITE === "1" ? [new SqliteStore({ path: "smoke-state/state.db" })] : [];
for (const store of [...sqlite, new FileStore({ path: "smoke-state/files" })]) {
  assert.equal(await store.increment("n"), 1);
  assert.equal(await store.increment("n"), 2);
  await store.close();
}
if (sqlite.length) {
  const { version } = createRequire(import.meta.url)("better-sqlite3/package.json");
  console.log(`sqlite ${version} ok`);
}
if (process.env.REDIS_URL) {
  const redis = new RedisStore({ url: process.env.REDIS_URL, prefix: `smoke-${process.pid}:` });
  assert.equal(await redis.increment("n"), 1);
  await redis.delete("n");
  await redis.close();
}

// 4. An MCP toolset, through the CLI.
const run = execFileSync("npx", ["hookwise", "run", "mcp.yaml", "--prompt", "echo hello", "--json"], {
  encoding: "utf8",
});
assert.match(JSON.parse(run).steps[0].toolResults[0].result, /echo: hello/);
// 5. The other providers' models in hookwise's loop (made, not called).
for (const model of [
  createAnthropic({ apiKey: "test" })("claude-sonnet-4-5"),
  createGoogleGenerativeAI({ apiKey: "test" })("gemini-2.5-flash"),
  createOpenAICompatible({ name: "local", baseURL: "http://127.0.0.1:1/v1" }).chatModel("local-model"),
])
  assert.equal(createAgent({ model }).name, "agent");

// 6. An OpenAPI toolset (its parser), the exact tokenizer, the HTTP server (Hono).
const pets = await openapiToolset("pets", { spec: "./openapi.json" });
assert.deepEqual(
  pets.tools.map((each) => each.qualifiedName),
  ["pets.listPets"],
);
const tokenizer = await useExactTokenizer();
assert.ok(tokenizer.count("hello world") > 0);
const server = await serve({ config: "mcp.yaml", host: "127.0.0.1", port: 0, log: () => {} });
try {
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
} finally {
  await server.close();
}
console.log("smoke ok");
