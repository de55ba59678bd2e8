/**
 * hookwise inside AI SDK code: a YAML config's policies and hooks run in `generateText` and
 * `streamText` through `hookwiseMiddleware` and `hookwiseTools`, the AI SDK driving its loop.
 */
import { fileURLToPath } from "node:url";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { mockModel } from "../../test/support/ai-sdk-mock-model.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { type HookwiseHooks, hookwiseHooks, loadHookwiseConfig } from "./hookwise-hooks.js";
import { hookwiseMiddleware, ModelRequestBlockedError } from "./hookwise-middleware.js";
import { hookwiseTools, ToolCallBlockedError } from "./hookwise-tools.js";

const CONFIG = fileURLToPath(new URL("../../test/fixtures/ai-sdk/hookwise.yaml", import.meta.url));

function shopTools(ran: string[]) {
  return {
    delete_all: tool({
      description: "Delete every order",
      inputSchema: z.object({}),
      execute: async () => {
        ran.push("delete_all");
        return "deleted";
      },
    }),
    list: tool({
      description: "List orders",
      inputSchema: z.object({ limit: z.number() }),
      execute: async ({ limit }) => {
        ran.push(`list ${limit}`);
        return ["order-1"].slice(0, limit);
      },
    }),
  };
}

let hooks: HookwiseHooks | undefined;
afterEach(async () => {
  await hooks?.close();
  hooks = undefined;
});

describe.each(["generateText", "streamText"] as const)("a YAML config inside %s", (surface) => {
  test("its deny policy stops the tool before its body runs; its request hook patches every attempt", async () => {
    hooks = await loadHookwiseConfig(CONFIG, { knownTools: ["shop.delete_all", "shop.list"] });
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: { limit: 1 } },
    ]);
    const options = {
      model: wrapLanguageModel({ model, middleware: hookwiseMiddleware(hooks) }),
      tools: hookwiseTools(shopTools(ran), hooks, { toolset: "shop" }),
      prompt: "clean up the shop",
      stopWhen: stepCountIs(5),
    };
    let toolOutputs: unknown[];
    let text: string;
    if (surface === "generateText") {
      const result = await generateText(options);
      text = result.text;
      toolOutputs = result.steps.flatMap((step) =>
        step.content.filter((part) => part.type.startsWith("tool-")),
      );
    } else {
      const result = streamText(options);
      text = await result.text;
      toolOutputs = (await result.steps).flatMap((step) =>
        step.content.filter((part) => part.type.startsWith("tool-")),
      );
    }
    expect(text).toBe("done");
    // The denied tool's side effect did not happen; the allowed one ran.
    expect(ran).toEqual(["list 1"]);
    expect(toolOutputs).toContainEqual(
      expect.objectContaining({
        type: "tool-error",
        toolName: "delete_all",
        error: expect.objectContaining({
          message: expect.stringMatching(
            /tool "shop.delete_all" was denied by hook "policy.*": destructive tools/,
          ),
        }),
      }),
    );
    // Every provider call carried the config's system message (a model_request patch).
    const calls = surface === "generateText" ? model.doGenerateCalls : model.doStreamCalls;
    expect(calls).toHaveLength(3);
    for (const call of calls as LanguageModelV3CallOptions[]) {
      expect(JSON.stringify(call.prompt)).toContain("Answer in one sentence.");
    }
  });
});

test("a model_request deny stops the provider call with an error naming the hook", async () => {
  const model = mockModel([]);
  const guarded = wrapLanguageModel({
    model,
    middleware: hookwiseMiddleware({
      hooks: [
        defineHook({
          name: "no-secrets",
          on: "model_request",
          kind: "decide",
          handler: ({ request }) =>
            JSON.stringify(request.messages).includes("password")
              ? flow.deny("secrets in the prompt")
              : undefined,
        }),
      ],
    }),
  });
  await expect(
    generateText({ model: guarded, prompt: "my password is hunter2", maxRetries: 0 }),
  ).rejects.toThrow(ModelRequestBlockedError);
  await expect(
    generateText({ model: guarded, prompt: "my password is hunter2", maxRetries: 0 }),
  ).rejects.toThrow(/model call denied by hook "no-secrets": secrets in the prompt/);
  expect(model.doGenerateCalls).toHaveLength(0);
  const fine = await generateText({ model: guarded, prompt: "hello" });
  expect(fine.text).toBe("done");
});

test("a model_request guard on the user's message reads a text file given inline", async () => {
  const model = mockModel([]);
  const guarded = wrapLanguageModel({
    model,
    middleware: hookwiseMiddleware({
      hooks: [
        defineHook({
          name: "no-secrets",
          on: "model_request",
          kind: "decide",
          handler: ({ userMessage }) =>
            userMessage.includes("password") ? flow.deny("secrets in the prompt") : undefined,
        }),
      ],
    }),
  });
  const secret = new TextEncoder().encode("my password is hunter2");
  await expect(
    generateText({
      model: guarded,
      maxRetries: 0,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarize this." },
            { type: "file", data: secret, mediaType: "text/plain" },
          ],
        },
      ],
    }),
  ).rejects.toThrow(/model call denied by hook "no-secrets"/);
  expect(model.doGenerateCalls).toHaveLength(0);
});

test("a config whose policy names tools it does not know says how to name the AI SDK code's tools", async () => {
  await expect(loadHookwiseConfig(CONFIG)).rejects.toThrow(
    /hookwise\.yaml:7:\d+: runtime\.policies\[0\]\.tool: deny policy tool "shop\.delete_all"[^\n]*loadHookwiseConfig\(path, \{ knownTools/,
  );
});

test("tools wrapped under other names than the config's knownTools are refused, not left unguarded", async () => {
  hooks = await loadHookwiseConfig(CONFIG, { knownTools: ["shop.delete_all", "shop.list"] });
  // The toolset forgotten: hooks would see "delete_all", and the deny policy on
  // "shop.delete_all" would never match.
  expect(() => hookwiseTools(shopTools([]), hooks!)).toThrow(
    /hookwiseTools: tool "delete_all" is not among the knownTools the config was loaded with \(shop\.delete_all, shop\.list\); did you mean hookwiseTools\(tools, hooks, \{ toolset: "shop" \}\)\?/,
  );
  expect(() => hookwiseTools(shopTools([]), hooks!, { toolset: "shops" })).toThrow(
    /tool "shops\.delete_all" is not among the knownTools[^\n]*did you mean "shop\.delete_all"/,
  );
  expect(() => hookwiseTools(shopTools([]), hooks!, { toolset: "shop" })).not.toThrow();
});

/** Hooks whose model_request patch offers the model only `list`. */
function onlyList() {
  return hookwiseHooks({
    hooks: [
      defineHook({
        name: "only-list",
        on: "model_request",
        kind: "transform",
        handler: () => flow.patch({ activeTools: ["list"] }),
      }),
    ],
  });
}

describe.each(["generateText", "streamText"] as const)("activeTools inside %s", (surface) => {
  test("a model_request activeTools patch is an allow-list: a call to a tool not offered does not run", async () => {
    const ran: string[] = [];
    const shared = onlyList();
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: { limit: 1 } },
    ]);
    const options = {
      model: wrapLanguageModel({ model, middleware: hookwiseMiddleware(shared) }),
      tools: hookwiseTools(shopTools(ran), shared, { toolset: "shop" }),
      prompt: "clean up the shop",
      stopWhen: stepCountIs(5),
    };
    const steps =
      surface === "generateText" ? (await generateText(options)).steps : await streamText(options).steps;
    // Only "list" was offered to the model; the hostile call to "delete_all" did not run.
    const calls = (
      surface === "generateText" ? model.doGenerateCalls : model.doStreamCalls
    ) as LanguageModelV3CallOptions[];
    expect(calls[0]!.tools?.map((spec) => spec.name)).toEqual(["list"]);
    expect(ran).toEqual(["list 1"]);
    expect(steps[0]!.content).toContainEqual(
      expect.objectContaining({
        type: "tool-error",
        toolName: "delete_all",
        error: expect.objectContaining({
          message: expect.stringMatching(/was not offered to the model.*activeTools/),
        }),
      }),
    );
  });
  test("two calls that share an id, both to a tool not offered: neither runs", async () => {
    const ran: string[] = [];
    const shared = onlyList();
    const model = mockModel([
      [
        { toolName: "delete_all", input: {}, id: "dup" },
        { toolName: "delete_all", input: {}, id: "dup" },
      ],
    ]);
    const options = {
      model: wrapLanguageModel({ model, middleware: hookwiseMiddleware(shared) }),
      tools: hookwiseTools(shopTools(ran), shared, { toolset: "shop" }),
      prompt: "clean up the shop",
      stopWhen: stepCountIs(3),
    };
    if (surface === "generateText") await generateText(options);
    else await streamText(options).consumeStream();
    expect(ran).toEqual([]);
  });
});

test("a decide or transform hook on an event AI SDK code never fires (run_start) is refused, not silently skipped", async () => {
  const guardConfig = fileURLToPath(new URL("../../test/fixtures/ai-sdk/input-guard.yaml", import.meta.url));
  await expect(loadHookwiseConfig(guardConfig)).rejects.toThrow(
    /hook "house-rules" \(transform on run_start\) would never run inside AI SDK code[^\n]*model_request, model_response, tool_call, tool_result/,
  );
  expect(() =>
    hookwiseHooks({
      hooks: [
        defineHook({ name: "rewrite", on: "run_start", kind: "transform", handler: () => undefined }),
        defineHook({ name: "watch", on: "run_end", kind: "inspect", handler: () => undefined }),
      ],
    }),
  ).toThrow(/hook "rewrite" \(transform on run_start\) would never run inside AI SDK code/);
});

test.each([
  [
    "throws",
    () => {
      throw new Error("guard crashed");
    },
  ],
  ["times out", () => new Promise<undefined>(() => {})],
])("a model_request decide hook that %s stops the provider call and is named", async (_, handler) => {
  const model = mockModel([]);
  const guarded = wrapLanguageModel({
    model,
    middleware: hookwiseMiddleware({
      hooks: [defineHook({ name: "guard", on: "model_request", kind: "decide", timeoutMs: 20, handler })],
    }),
  });
  const error = await generateText({ model: guarded, prompt: "hi", maxRetries: 0 }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelRequestBlockedError);
  expect((error as ModelRequestBlockedError).hook).toBe("guard");
  expect(model.doGenerateCalls).toHaveLength(0);
});

describe("the refusal errors of hookwise/ai-sdk", () => {
  test("each isInstance recognises its own kind only (from any copy of hookwise), not every hookwise error", () => {
    const model = new ModelRequestBlockedError("model call denied", "budget");
    const toolCall = new ToolCallBlockedError("tool not run", "no-deletes");
    expect(ModelRequestBlockedError.isInstance(model)).toBe(true);
    expect(ModelRequestBlockedError.isInstance(toolCall)).toBe(false);
    expect(ToolCallBlockedError.isInstance(model)).toBe(false);
    expect(ToolCallBlockedError.isInstance(toolCall)).toBe(true);
    // Another copy's error: the marker and the name, not the class.
    const copied = Object.assign(new Error("model call denied"), { name: "ModelRequestBlockedError" });
    (copied as unknown as Record<symbol, unknown>)[Symbol.for("hookwise.error")] = true;
    expect(ModelRequestBlockedError.isInstance(copied)).toBe(true);
  });
});
