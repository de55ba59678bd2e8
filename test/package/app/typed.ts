// The README's example and hookwise inside AI SDK code, compiled strict against the app's
// TypeScript, AI SDK and provider.
import { readFile } from "node:fs/promises";
import { createOpenAI } from "@ai-sdk/openai";
import { tool as aiTool, generateText, wrapLanguageModel } from "ai";
import { createAgent, defineHook, flow, policy, scriptedModel, tool } from "hookwise";
import { hookwiseHooks, hookwiseMiddleware, hookwiseTools } from "hookwise/ai-sdk";
import { z } from "zod";

const model = scriptedModel([
  { toolCalls: [{ name: "read_file", args: { path: ".env" } }] },
  { text: "I may not read .env, so I cannot summarise it." },
]);

const readFileTool = tool({
  description: "Read a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => readFile(path, "utf8"),
});

const agent = createAgent({
  model,
  instructions: "You are a careful assistant.",
  tools: { read_file: readFileTool },
  policies: [policy.deny("*"), policy.allow("read_file")],
});
// Typed from read_file's schema: no cast (a wrong field would not compile).
agent.use(
  defineHook({
    name: "no-secrets",
    on: "tool_call",
    kind: "decide",
    match: "read_file",
    handler: (event) => (event.args.path.includes(".env") ? flow.deny("secrets are off limits") : undefined),
  }),
);
// The same from an AI SDK tool().
createAgent({
  model,
  tools: {
    search: aiTool({
      description: "Search",
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => [query],
    }),
  },
}).use(
  defineHook({
    name: "short-queries",
    on: "tool_call",
    kind: "decide",
    match: "search",
    handler: (event) => (event.args.query.length > 100 ? flow.deny("too long") : undefined),
  }),
);
const result = await agent.run("Summarise .env");
const outcome: string = result.outcome;

// A provider model in hookwise's loop, and hookwise in the AI SDK's.
const openai = createOpenAI({ apiKey: "sk-test" });
createAgent({ model: openai.chat("gpt-4.1-mini") });
const hooks = hookwiseHooks({ policies: [policy.deny("read_file")] });
const text: string = (
  await generateText({
    model: wrapLanguageModel({ model: openai.chat("gpt-4.1-mini"), middleware: hookwiseMiddleware(hooks) }),
    tools: hookwiseTools(
      {
        read_file: aiTool({
          description: "Read a file",
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => readFile(path, "utf8"),
        }),
      },
      hooks,
    ),
    prompt: "hi",
  })
).text;
console.log(outcome, text);
