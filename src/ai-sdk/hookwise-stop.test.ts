/**
 * `hookwiseStop()` ends the AI SDK's own loop when a hook terminates: after the step, no
 * further model call is made, and the terminated call's body did not run. Concurrent runs
 * sharing one set of hooks and tools do not stop each other.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { mockModel } from "../../test/support/ai-sdk-mock-model.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { hookwiseHooks } from "./hookwise-hooks.js";
import { hookwiseMiddleware } from "./hookwise-middleware.js";
import { type HookwiseStepLike, hookwiseStop, hookwiseTermination } from "./hookwise-stop.js";
import { hookwiseTools, ToolCallBlockedError } from "./hookwise-tools.js";

type Surface = "generateText" | "streamText";

function shopTools(ran: string[]) {
  return {
    delete_all: tool({
      inputSchema: z.object({ shop: z.string().optional() }),
      execute: async ({ shop }) => {
        ran.push(`delete_all ${shop ?? ""}`.trim());
        return "deleted";
      },
    }),
    list: tool({
      inputSchema: z.object({}),
      execute: async () => {
        ran.push("list");
        return ["order-1"];
      },
    }),
  };
}

const stopDeletes = defineHook({
  name: "stop-deletes",
  on: "tool_call",
  kind: "transform",
  handler: ({ toolName, args }) =>
    toolName === "delete_all" && (args as { shop?: string }).shop !== "sandbox"
      ? flow.terminate("deleting is over budget")
      : undefined,
});

/** Runs the AI SDK loop; answers the provider calls made and the steps. */
async function drive(
  surface: Surface,
  options: {
    model: ReturnType<typeof mockModel>;
    wrapped?: Parameters<typeof wrapLanguageModel>[0]["model"];
    tools?: Parameters<typeof generateText>[0]["tools"];
    stop?: boolean;
    messages?: ModelMessage[];
  },
) {
  const settings = {
    model: options.wrapped ?? options.model,
    tools: options.tools,
    ...(options.messages ? { messages: options.messages } : { prompt: "go" }),
    stopWhen: options.stop === false ? stepCountIs(5) : [stepCountIs(5), hookwiseStop()],
  };
  let steps: Awaited<ReturnType<typeof generateText>>["steps"];
  let text: string;
  let finishReason: string;
  let warnings: unknown[] | undefined;
  if (surface === "generateText") {
    const result = await generateText(settings);
    ({ steps, text, finishReason, warnings } = result);
  } else {
    const result = streamText(settings);
    await result.consumeStream();
    steps = await result.steps;
    text = await result.text;
    finishReason = await result.finishReason;
    warnings = await result.warnings;
  }
  const calls = (
    surface === "generateText" ? options.model.doGenerateCalls : options.model.doStreamCalls
  ) as LanguageModelV3CallOptions[];
  return { calls: calls.length, steps, text, finishReason, warnings: warnings ?? [] };
}

describe.each(["generateText", "streamText"] as const)("hookwiseStop inside %s", (surface) => {
  test("a tool_call terminate ends the loop after its step: no further model call, the body did not run", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: {} },
    ]);
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] }));
    const { calls, steps } = await drive(surface, { model, tools });
    expect(calls).toBe(1);
    expect(ran).toEqual([]);
    expect(steps).toHaveLength(1);
    expect(hookwiseTermination(steps)).toEqual({
      hook: "stop-deletes",
      reason: "deleting is over budget",
      toolCallId: "c1",
    });
  });

  test("without hookwiseStop the AI SDK's loop goes on after the terminate (the model is called again)", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: {} },
    ]);
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] }));
    const { calls } = await drive(surface, { model, tools, stop: false });
    expect(calls).toBe(3);
    expect(ran).toEqual(["list"]);
  });

  test("a tool_result terminate ends the loop after its step; the result never reaches a model call", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "list", input: {} },
      { toolName: "delete_all", input: {} },
    ]);
    const leak = defineHook({
      name: "leak-guard",
      on: "tool_result",
      kind: "transform",
      handler: () => flow.terminate("the result holds a secret"),
    });
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [leak] }));
    const { calls, steps } = await drive(surface, { model, tools });
    expect(calls).toBe(1);
    expect(ran).toEqual(["list"]);
    expect(hookwiseTermination(steps)).toMatchObject({ hook: "leak-guard", toolCallId: "c1" });
  });

  test("a provider's own metadata under `hookwise` (a gateway passes its server's on) neither stops the loop nor names a hook", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "list", input: {} },
      { toolName: "list", input: {} },
    ]);
    const forged = { hookwise: { terminated: true, hook: "forged", reason: "a server said so" } };
    const { doGenerate, doStream } = model;
    model.doGenerate = async (options) => ({
      ...(await doGenerate.call(model, options)),
      providerMetadata: forged,
    });
    model.doStream = async (options) => {
      const { stream, ...rest } = await doStream.call(model, options);
      const withMetadata = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform: (part, controller) =>
          controller.enqueue(part.type === "finish" ? { ...part, providerMetadata: forged } : part),
      });
      return { stream: stream.pipeThrough(withMetadata), ...rest };
    };
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] }));
    const { calls, steps } = await drive(surface, { model, tools });
    expect(calls).toBe(3);
    expect(ran).toEqual(["list", "list"]);
    expect(hookwiseTermination(steps)).toBeUndefined();
  });

  test("tools wrapped twice (a config's hooks, then the app's): the inner hooks' terminate still ends the loop", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: {} },
    ]);
    const seen: string[] = [];
    const audit = defineHook({
      name: "audit",
      on: "tool_result",
      kind: "inspect",
      handler: ({ toolName }) => {
        seen.push(toolName);
      },
    });
    const inner = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] }));
    const tools = hookwiseTools(inner, hookwiseHooks({ hooks: [audit] }));
    const { calls, steps } = await drive(surface, { model, tools });
    expect(calls).toBe(1);
    expect(ran).toEqual([]);
    expect(hookwiseTermination(steps)).toMatchObject({ hook: "stop-deletes", toolCallId: "c1" });
    // A refused call is no tool result: the outer hooks do not see it as the tool's failure.
    expect(seen).toEqual([]);
  });

  test("a denied call is not a terminate: the loop goes on", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: {} },
    ]);
    const deny = defineHook({
      name: "no-deletes",
      on: "tool_call",
      kind: "decide",
      handler: ({ toolName }) => (toolName === "delete_all" ? flow.deny("not here") : undefined),
    });
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [deny] }));
    const { calls, steps } = await drive(surface, { model, tools });
    expect(calls).toBe(3);
    expect(ran).toEqual(["list"]);
    expect(hookwiseTermination(steps)).toBeUndefined();
  });

  test("concurrent runs sharing hooks and tools (and the same call ids) do not stop each other", async () => {
    const ran: string[] = [];
    const tools = hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] }));
    const stopped = mockModel([
      { toolName: "delete_all", input: { shop: "live" } },
      { toolName: "list", input: {} },
    ]);
    const going = mockModel([
      { toolName: "delete_all", input: { shop: "sandbox" } },
      { toolName: "list", input: {} },
    ]);
    const [first, second] = await Promise.all([
      drive(surface, { model: stopped, tools }),
      drive(surface, { model: going, tools }),
    ]);
    expect(first.calls).toBe(1);
    expect(second.calls).toBe(3);
    expect(second.text).toBe("done");
    expect(ran.sort()).toEqual(["delete_all sandbox", "list"]);
  });

  test("a model_request terminate in the middleware: the provider is not called and the loop ends", async () => {
    const ran: string[] = [];
    const model = mockModel([{ toolName: "list", input: {} }]);
    const budget = defineHook({
      name: "token-budget",
      on: "model_request",
      kind: "transform",
      handler: () => flow.terminate("budget spent"),
    });
    const hooks = hookwiseHooks({ hooks: [budget] });
    const { calls, steps, text, finishReason, warnings } = await drive(surface, {
      model,
      wrapped: wrapLanguageModel({ model, middleware: hookwiseMiddleware(hooks) }),
      tools: hookwiseTools(shopTools(ran), hooks),
    });
    expect(calls).toBe(0);
    expect(ran).toEqual([]);
    expect(text).toBe("");
    expect(finishReason).toBe("other");
    expect(hookwiseTermination(steps)).toEqual({ hook: "token-budget", reason: "budget spent" });
    // The empty answer explains itself: a warning names the hook and its reason.
    expect(warnings).toEqual([
      {
        type: "other",
        message: 'hookwise: hook "token-budget" ended the run before this model call: budget spent',
      },
    ]);
  });

  test("a model_request terminate after a tool step: the step's tools ran, no further provider call", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "list", input: {} },
      { toolName: "delete_all", input: {} },
    ]);
    const oneStep = defineHook({
      name: "one-step",
      on: "model_request",
      kind: "transform",
      handler: ({ isFirstStep }) => (isFirstStep ? undefined : flow.terminate("one step only")),
    });
    const hooks = hookwiseHooks({ hooks: [oneStep] });
    const { calls, steps } = await drive(surface, {
      model,
      wrapped: wrapLanguageModel({ model, middleware: hookwiseMiddleware(hooks) }),
      tools: hookwiseTools(shopTools(ran), hooks),
    });
    expect(calls).toBe(1);
    expect(ran).toEqual(["list"]);
    expect(steps).toHaveLength(2);
    expect(hookwiseTermination(steps)).toMatchObject({ hook: "one-step" });
  });

  test("a terminate of a call the AI SDK runs from a tool approval (before any step) ends the run in the middleware", async () => {
    const ran: string[] = [];
    const model = mockModel([{ toolName: "delete_all", input: {} }]);
    const hooks = hookwiseHooks({ hooks: [stopDeletes] });
    const wrapped = wrapLanguageModel({ model, middleware: hookwiseMiddleware(hooks) });
    const approved = shopTools(ran);
    const tools = hookwiseTools(
      { ...approved, delete_all: { ...approved.delete_all, needsApproval: true } },
      hooks,
    );
    const stopWhen = [stepCountIs(5), hookwiseStop()];
    const first = await generateText({ model: wrapped, tools, prompt: "go", stopWhen });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    if (request?.type !== "tool-approval-request") throw new Error("no approval was asked");
    const messages: ModelMessage[] = [
      { role: "user", content: "go" },
      ...first.response.messages,
      {
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
      },
    ];
    let steps: readonly HookwiseStepLike[];
    if (surface === "generateText") {
      ({ steps } = await generateText({ model: wrapped, tools, messages, stopWhen }));
    } else {
      const second = streamText({ model: wrapped, tools, messages, stopWhen });
      await second.consumeStream();
      steps = await second.steps;
    }
    expect(ran).toEqual([]);
    // One provider call: the first run's. The approved call's terminate ended the second run.
    expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(1);
    expect(hookwiseTermination(steps)).toEqual({
      hook: "stop-deletes",
      reason: "deleting is over budget",
      toolCallId: "c1",
    });
  });

  test("a terminate recorded for a call id an old approval used ends no later turn of the conversation", async () => {
    // Call ids repeat across requests (a model made per request numbers its calls from 1):
    // a step's call may share its id with an approval request earlier in the conversation.
    const ran: string[] = [];
    const hooks = hookwiseHooks({ hooks: [stopDeletes] });
    const tools = hookwiseTools(shopTools(ran), hooks);
    const stopWhen = [stepCountIs(5), hookwiseStop()];
    const earlier: ModelMessage[] = [
      { role: "user", content: "list the shop" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "list", input: {} },
          { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-approval-response", approvalId: "a1", approved: false },
          { type: "tool-result", toolCallId: "c1", toolName: "list", output: { type: "execution-denied" } },
        ],
      },
      { role: "assistant", content: "Not listed." },
      { role: "user", content: "delete everything" },
    ];
    const deleting = mockModel([{ toolName: "delete_all", input: {} }]);
    const ended = await generateText({
      model: wrapLanguageModel({ model: deleting, middleware: hookwiseMiddleware(hooks) }),
      tools,
      messages: earlier,
      stopWhen,
    });
    expect(hookwiseTermination(ended.steps)).toMatchObject({ hook: "stop-deletes", toolCallId: "c1" });

    // The next turn: the user asks again; the terminate above is no reason to end it.
    const answering = mockModel([]);
    const { calls, text } = await drive(surface, {
      model: answering,
      wrapped: wrapLanguageModel({ model: answering, middleware: hookwiseMiddleware(hooks) }),
      tools,
      messages: [...earlier, ...ended.response.messages, { role: "user", content: "what now?" }],
    });
    expect(calls).toBe(1);
    expect(text).toBe("done");
    expect(ran).toEqual([]);
  });

  test("a ToolLoopAgent with hookwiseStop in its stopWhen ends after the terminated call", async () => {
    const ran: string[] = [];
    const model = mockModel([
      { toolName: "delete_all", input: {} },
      { toolName: "list", input: {} },
    ]);
    const agent = new ToolLoopAgent({
      model,
      tools: hookwiseTools(shopTools(ran), hookwiseHooks({ hooks: [stopDeletes] })),
      stopWhen: [stepCountIs(5), hookwiseStop()],
    });
    if (surface === "generateText") await agent.generate({ prompt: "go" });
    else await (await agent.stream({ prompt: "go" })).consumeStream();
    const calls = surface === "generateText" ? model.doGenerateCalls : model.doStreamCalls;
    expect(calls).toHaveLength(1);
    expect(ran).toEqual([]);
  });
});

describe("hookwiseStop reads only the step's own terminated calls", () => {
  const terminated = (toolCallId: string) =>
    new ToolCallBlockedError("ended", "stop", { toolCallId, terminated: true, reason: "ended" });
  const step = (...content: { type: string; toolCallId?: string; error?: unknown }[]) => ({ content });

  test.each([
    [
      "a terminated call of this step",
      step({ type: "tool-error", toolCallId: "c1", error: terminated("c1") }),
      true,
    ],
    [
      "a denied call",
      step({ type: "tool-error", toolCallId: "c1", error: new ToolCallBlockedError("no", "deny") }),
      false,
    ],
    [
      "another call's terminate passed along",
      step({ type: "tool-error", toolCallId: "c2", error: terminated("c1") }),
      false,
    ],
    ["a tool's own error", step({ type: "tool-error", toolCallId: "c1", error: new Error("ended") }), false],
    ["a result", step({ type: "tool-result", toolCallId: "c1" }), false],
  ])("%s", (_, last, stops) => {
    expect(hookwiseStop()({ steps: [last] })).toBe(stops);
  });

  test("only the last step counts: an earlier terminate the loop went past does not stop a later step", () => {
    const earlier = step({ type: "tool-error", toolCallId: "c1", error: terminated("c1") });
    expect(hookwiseStop()({ steps: [earlier, step({ type: "text" })] })).toBe(false);
    expect(hookwiseTermination([earlier, step({ type: "text" })])).toMatchObject({ toolCallId: "c1" });
  });
});
