/**
 * Prompt caching: per-attempt context goes after the last message (everything before it is
 * the previous step's request, unchanged), `placement` keeps the other spots available,
 * cache breakpoints land on the end of the stable history for providers that want them,
 * and cached tokens are reported. On run() and stream().
 */
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recordingLogger } from "../../test/support/engine-harness.js";
import { runBoth } from "../../test/support/surfaces.js";
import {
  type AgentOptions,
  createAgent,
  defineHook,
  flow,
  type RequestPatch,
  type ScriptStep,
  scriptedModel,
  tool,
} from "../index.js";

const lookup = tool({ inputSchema: z.object({ q: z.string() }), execute: ({ q }) => `found ${q}` });

const SCRIPT: ScriptStep[] = [
  { toolCalls: [{ name: "lookup", args: { q: "a" } }] },
  { toolCalls: [{ name: "lookup", args: { q: "b" } }] },
  { text: "done" },
];

/** A hook adding context that changes every attempt (a clock, a live snapshot). */
function changingContext(patch: Partial<RequestPatch> = {}) {
  return defineHook({
    name: "live",
    on: "model_request",
    kind: "transform",
    handler: (event) =>
      flow.patch({ extraContext: [{ id: "live", text: `step ${event.request.step}` }], ...patch }),
  });
}

function setup(options: Partial<AgentOptions> = {}, provider = "scripted", modelId?: string) {
  return () => {
    const scripted = scriptedModel(SCRIPT);
    const model = { ...scripted, provider, ...(modelId ? { modelId } : {}) };
    const agent = createAgent({ model, tools: { lookup }, instructions: "You look things up.", ...options });
    return { agent, prompts: () => scripted.calls.map((call) => call.prompt) };
  };
}

/** A prompt without breakpoint marks, as bytes: what a provider's cache compares. */
function bytes(prompt: LanguageModelV3Prompt): string {
  return JSON.stringify(prompt, (key, value) => (key === "providerOptions" ? undefined : value));
}

/** A prompt without the context its attempt added at the end. */
function withoutContext(prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  const last = prompt.at(-1)!;
  const parts = last.content as { type: string; text?: string }[];
  const own = parts.filter((part) => !part.text?.startsWith("<context"));
  if (own.length === 0) return prompt.slice(0, -1);
  return [...prompt.slice(0, -1), { ...last, content: own } as LanguageModelV3Prompt[number]];
}

function texts(message: LanguageModelV3Prompt[number]): string[] {
  if (typeof message.content === "string") return [message.content];
  return (message.content as { type: string; text?: string }[]).flatMap((part) =>
    part.type === "text" ? [part.text!] : [],
  );
}

describe("per-attempt context goes after the last message by default", () => {
  it("each request starts with the previous one minus its own context (the cache still holds it)", async () => {
    for (const [surface, outcome] of Object.entries(
      await runBoth(setup({ hooks: [changingContext()] }), "Find a and b"),
    )) {
      const prompts = outcome.prompts();
      expect(prompts, surface).toHaveLength(3);
      for (let index = 1; index < prompts.length; index++) {
        const previous = prompts[index - 1]!;
        const current = prompts[index]!;
        // The previous request without its context is a prefix of this one, byte for byte.
        const stable = bytes(withoutContext(previous));
        expect(bytes(current).startsWith(stable.slice(0, -1)), surface).toBe(true);
        // This attempt's context is the last thing sent.
        expect(texts(current.at(-1)!).at(-1), surface).toBe(`<context id="live">\nstep ${index}\n</context>`);
      }
      // The run's user message never carries a later step's context.
      expect(texts(prompts[2]![1]!), surface).toEqual(["Find a and b"]);
      // Nothing of it reaches the transcript.
      expect(JSON.stringify(outcome.result.messages), surface).not.toContain("<context");
    }
  });

  it("after tool results it is a user message of its own; on the first step it joins the user's message", async () => {
    const { run, stream } = await runBoth(setup({ hooks: [changingContext()] }), "Find a and b");
    for (const outcome of [run, stream]) {
      const [first, second] = outcome.prompts();
      expect(first!.at(-1)).toMatchObject({ role: "user" });
      expect(texts(first!.at(-1)!)).toEqual(["Find a and b", '<context id="live">\nstep 0\n</context>']);
      expect(second!.at(-2)).toMatchObject({ role: "tool" });
      expect(second!.at(-1)).toEqual({
        role: "user",
        content: [{ type: "text", text: '<context id="live">\nstep 1\n</context>' }],
      });
    }
  });

  it("placement: user_message keeps it in the user's message; system appends it to the system prompt", async () => {
    const inUser = await runBoth(
      setup({ hooks: [changingContext({ placement: "user_message" })] }),
      "Find a and b",
    );
    for (const outcome of [inUser.run, inUser.stream]) {
      const third = outcome.prompts()[2]!;
      expect(texts(third[1]!)).toEqual(["Find a and b", '<context id="live">\nstep 2\n</context>']);
      expect(third.at(-1)!.role).toBe("tool");
    }
    const inSystem = await runBoth(
      setup({ hooks: [changingContext({ placement: "system" })] }),
      "Find a and b",
    );
    for (const outcome of [inSystem.run, inSystem.stream]) {
      const third = outcome.prompts()[2]!;
      expect(third[0]).toEqual({
        role: "system",
        content: 'You look things up.\n\n<context id="live">\nstep 2\n</context>',
      });
      expect(third.at(-1)!.role).toBe("tool");
    }
  });

  it("appendToUserMessage follows the same rule (end by default, user_message on request)", async () => {
    const appender = (placement?: RequestPatch["placement"]) =>
      defineHook({
        name: "append",
        on: "model_request",
        kind: "transform",
        handler: (event) =>
          flow.patch({
            appendToUserMessage: `attempt of step ${event.request.step}`,
            ...(placement ? { placement } : {}),
          }),
      });
    const atEnd = await runBoth(setup({ hooks: [appender()] }), "Find a and b");
    for (const outcome of [atEnd.run, atEnd.stream]) {
      const third = outcome.prompts()[2]!;
      expect(texts(third[1]!)).toEqual(["Find a and b"]);
      expect(third.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "attempt of step 2" }] });
    }
    const literal = await runBoth(setup({ hooks: [appender("user_message")] }), "Find a and b");
    for (const outcome of [literal.run, literal.stream]) {
      expect(texts(outcome.prompts()[2]![1]!)).toEqual(["Find a and b", "attempt of step 2"]);
    }
  });
});

function marked(part: unknown): boolean {
  return JSON.stringify(part).includes('"cacheControl":{"type":"ephemeral"}');
}

describe("cache breakpoints", () => {
  it("Anthropic: the end of the stable history is marked, the attempt's own context after it is not", async () => {
    const { run, stream } = await runBoth(
      setup({ hooks: [changingContext()] }, "anthropic.messages"),
      "Find a and b",
    );
    for (const outcome of [run, stream]) {
      const [first, second, third] = outcome.prompts();
      // Step 1: the user's own text part is marked, the context appended to it is not.
      const firstUser = first!.at(-1)!.content as unknown[];
      expect(firstUser.map(marked)).toEqual([true, false]);
      // Later steps: the last tool result is marked; the context message after it is not.
      for (const prompt of [second!, third!]) {
        expect(marked(prompt.at(-2))).toBe(true);
        expect(marked(prompt.at(-1))).toBe(false);
        // One mark in the messages (a short system prompt gets none).
        expect(prompt.filter(marked)).toHaveLength(1);
      }
      // Marks are copies: the request of step 2 as the hooks saw it, and the transcript, have none.
      expect(JSON.stringify(outcome.result.messages)).not.toContain("cacheControl");
      expect(marked(second![2])).toBe(false);
    }
  });

  it("a large system prompt gets a mark of its own; breakpoints: off marks nothing; other providers are left alone", async () => {
    const long = "Rules. ".repeat(1_000);
    const big = await runBoth(setup({ instructions: long }, "anthropic.messages"), "Find a and b");
    expect(marked(big.run.prompts()[1]![0])).toBe(true);
    expect(marked(big.stream.prompts()[1]![0])).toBe(true);
    const off = await runBoth(setup({ cache: { breakpoints: "off" } }, "anthropic.messages"), "Find a and b");
    const openai = await runBoth(setup({}, "openai.responses"), "Find a and b");
    for (const outcome of [off.run, off.stream, openai.run, openai.stream])
      expect(JSON.stringify(outcome.prompts())).not.toContain("cacheControl");
  });
});

describe("cache breakpoints on Bedrock", () => {
  it("a Claude model on Bedrock gets cache points; a model that is not Claude gets no cache marks", async () => {
    const claude = await runBoth(
      setup({}, "amazon-bedrock", "anthropic.claude-3-5-sonnet-20241022-v2:0"),
      "Find a and b",
    );
    for (const outcome of [claude.run, claude.stream])
      expect(JSON.stringify(outcome.prompts())).toContain("cachePoint");
    for (const modelId of [
      "meta.llama3-70b-instruct-v1:0",
      "amazon.nova-pro-v1:0",
      "mistral.mistral-large-2407-v1:0",
    ]) {
      const other = await runBoth(setup({}, "amazon-bedrock", modelId), "Find a and b");
      for (const outcome of [other.run, other.stream]) {
        const prompts = JSON.stringify(outcome.prompts());
        expect(prompts, modelId).not.toContain("cachePoint");
        expect(prompts, modelId).not.toContain("cacheControl");
      }
    }
  });
});

describe("a system prompt patched differently per attempt", () => {
  it("is warned about once per run, naming the hook; a constant one is not", async () => {
    const systemHook = (text: (step: number) => string) =>
      defineHook({
        name: "system-clock",
        on: "model_request",
        kind: "transform",
        handler: (event) => flow.patch({ system: text(event.request.step) }),
      });
    for (const [text, expected] of [
      [(step: number) => `Now: step ${step}`, 1],
      [() => "Always the same.", 0],
    ] as const) {
      const loggers: ReturnType<typeof recordingLogger>[] = [];
      await runBoth(() => {
        const logger = recordingLogger();
        loggers.push(logger);
        return setup({ hooks: [systemHook(text)], logger })();
      }, "Find a and b");
      for (const logger of loggers) {
        const warned = logger.warnings.filter((warning) => warning.includes("prompt cache"));
        expect(warned).toHaveLength(expected);
        if (expected) expect(warned[0]).toContain('hook "system-clock"');
      }
    }
  });
});

describe("cached tokens", () => {
  it("RunResult.usage and each step's usage carry cache reads and writes when the provider reports them", async () => {
    const script: ScriptStep[] = [
      {
        toolCalls: [{ name: "lookup", args: { q: "a" } }],
        usage: { inputTokens: 1_000, outputTokens: 10, cacheWriteTokens: 900 },
      },
      { text: "done", usage: { inputTokens: 1_100, outputTokens: 5, cacheReadTokens: 900 } },
    ];
    const { run, stream } = await runBoth(
      () => ({ agent: createAgent({ model: scriptedModel(script), tools: { lookup } }) }),
      "Find a",
    );
    for (const { result } of [run, stream]) {
      expect(result.usage).toEqual({
        inputTokens: 2_100,
        outputTokens: 15,
        totalTokens: 2_115,
        cacheReadTokens: 900,
        cacheWriteTokens: 900,
      });
      expect(result.steps.map((step) => [step.usage.cacheReadTokens, step.usage.cacheWriteTokens])).toEqual([
        [undefined, 900],
        [900, undefined],
      ]);
    }
  });

  it("a provider that says nothing about its cache adds no cache fields", async () => {
    const { run } = await runBoth(
      () => ({ agent: createAgent({ model: scriptedModel([{ text: "hi" }]) }) }),
      "Hello",
    );
    expect(Object.keys(run.result.usage).sort()).toEqual(["inputTokens", "outputTokens", "totalTokens"]);
  });
});
