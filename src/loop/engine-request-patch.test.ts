/**
 * RequestPatch at loop level (DESIGN §4, seed 004): each merge rule as the provider sees it,
 * a fresh patch per attempt, what hooks are given, and the local toolChoice validation.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { recordingLogger, runBoth, userTextSent } from "../../test/support/engine-harness.js";
import {
  type AgentOptions,
  createAgent,
  defineHook,
  flow,
  type ModelMessage,
  type RequestPatch,
  resolveTool,
  type ScriptStep,
  scriptedModel,
  tool,
} from "../index.js";

const noop = tool({ inputSchema: z.object({}), execute: () => "ok" });

function patcher(name: string, patch: RequestPatch, priority?: number) {
  return defineHook({
    name,
    on: "model_request",
    kind: "transform",
    ...(priority === undefined ? {} : { priority }),
    handler: () => flow.patch(patch),
  });
}

/** One text answer under the given patches; returns both surfaces' outcomes. */
function withPatches(
  patches: RequestPatch[],
  extra: Partial<AgentOptions> = {},
  script: ScriptStep[] = [{ text: "ok" }],
) {
  return runBoth(() => {
    const logger = recordingLogger();
    const model = scriptedModel(script);
    const agent = createAgent({
      model,
      logger,
      tools: { alpha: noop, beta: noop, gamma: noop },
      hooks: patches.map((patch, index) => patcher(`hook${index + 1}`, patch)),
      ...extra,
    });
    return { agent, model, logger };
  }, "the question");
}

describe("merge rules as the provider sees them", () => {
  test("extraContext: appended in hook order, strings and {id, text} blocks", async () => {
    const out = await withPatches([
      { extraContext: ["first"] },
      { extraContext: [{ id: "doc-7", text: "second" }, "third"] },
    ]);
    for (const { fixture, result } of out.both) {
      const sent = userTextSent(fixture.model.calls[0]!.prompt).join("\n");
      const order = ["the question", "first", 'id="doc-7"', "second", "third"].map((part) =>
        sent.indexOf(part),
      );
      expect(order.every((index) => index >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(JSON.stringify(result.messages)).not.toContain("second");
    }
  });

  test("appendToUserMessage: appended in order to the run's user message (copy only)", async () => {
    const out = await withPatches([{ appendToUserMessage: "(be brief)" }, { appendToUserMessage: "(cite)" }]);
    for (const { fixture, result } of out.both) {
      const sent = userTextSent(fixture.model.calls[0]!.prompt);
      expect(sent[0]).toBe("the question");
      expect(sent.slice(1).join("")).toBe("(be brief)\n\n(cite)");
      expect(result.messages[0]).toEqual({ role: "user", content: "the question" });
    }
  });

  test("system: last writer wins, a warning names both hooks", async () => {
    const out = await withPatches([{ system: "first system" }, { system: "second system" }], {
      instructions: "baseline system",
    });
    for (const { fixture } of out.both) {
      expect(fixture.model.calls[0]!.prompt[0]).toEqual({ role: "system", content: "second system" });
      const warning = fixture.logger.warnings.find((message) => message.includes("system"));
      expect(warning).toContain('"hook1"');
      expect(warning).toContain('"hook2"');
    }
  });

  test("messages: last writer wins (history view only), a warning names both hooks", async () => {
    const compacted: ModelMessage[] = [{ role: "user", content: "compacted history" }];
    const out = await withPatches([
      { messages: [{ role: "user", content: "first view" }] },
      { messages: compacted },
    ]);
    for (const { fixture, result } of out.both) {
      expect(userTextSent(fixture.model.calls[0]!.prompt)).toEqual(["compacted history"]);
      const warning = fixture.logger.warnings.find((message) => message.includes("messages"));
      expect(warning).toContain('"hook1"');
      expect(warning).toContain('"hook2"');
      expect(result.messages[0]).toEqual({ role: "user", content: "the question" });
    }
  });

  test("scalars: last writer wins per field, unset fields keep earlier writers and the baseline", async () => {
    const out = await withPatches(
      [
        { temperature: 0.1, maxOutputTokens: 50, toolChoice: "none" },
        { temperature: 0.7, topP: 0.5, toolChoice: "auto" },
      ],
      { temperature: 1, maxOutputTokens: 999 },
    );
    for (const { fixture, result } of out.both) {
      const call = fixture.model.calls[0]!;
      expect(call.temperature).toBe(0.7);
      expect(call.maxOutputTokens).toBe(50);
      expect(call.topP).toBe(0.5);
      expect(call.toolChoice).toEqual({ type: "auto" });
      expect(result.requests[0]).toMatchObject({ temperature: 0.7, maxOutputTokens: 50, toolChoice: "auto" });
    }
  });

  test("providerOptions: deep merge across hooks and onto the agent's options, later wins per key", async () => {
    const out = await withPatches(
      [
        { providerOptions: { openai: { a: 1, nested: { x: 1, keep: true } } } },
        { providerOptions: { openai: { a: 2, nested: { x: 2 } }, anthropic: { b: 1 } } },
      ],
      { providerOptions: { openai: { user: "u-1" } } },
    );
    for (const { fixture } of out.both) {
      expect(fixture.model.calls[0]!.providerOptions).toEqual({
        openai: { user: "u-1", a: 2, nested: { x: 2, keep: true } },
        anthropic: { b: 1 },
      });
    }
  });

  test("activeTools: intersection of every hook's allow-list (function or qualified names)", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ text: "ok" }]);
      const agent = createAgent({
        model,
        tools: [
          resolveTool("read", noop, { toolset: "fs" }),
          resolveTool("write", noop, { toolset: "fs" }),
          resolveTool("get", noop, { toolset: "web" }),
        ],
        hooks: [
          patcher("narrow-1", { activeTools: ["fs.read", "fs_write", "web.get"] }),
          patcher("narrow-2", { activeTools: ["fs_read", "fs.write"] }),
          patcher("narrow-3", { activeTools: ["fs.read", "web_get"] }),
        ],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls[0]!.tools?.map((spec) => spec.name)).toEqual(["fs_read"]);
      expect(result.requests[0]!.tools.map((spec) => spec.name)).toEqual(["fs_read"]);
    }
  });
});

describe("attempts", () => {
  test("a retryable error on attempt 1 → attempt 2 carries only its own freshly injected content", async () => {
    const out = await runBoth(() => {
      const contexts: { attempt: number; step: number }[] = [];
      const model = scriptedModel([{ error: { status: 429, message: "slow down" } }, { text: "ok" }]);
      const agent = createAgent({
        model,
        retry: { initialDelayMs: 0 },
        hooks: [
          defineHook({
            name: "inject",
            on: "model_request",
            kind: "transform",
            handler: (event, ctx) => {
              contexts.push({ attempt: ctx.attempt, step: ctx.step });
              expect(event.request.attempt).toBe(ctx.attempt);
              return flow.patch({
                extraContext: [`attempt ${ctx.attempt}`],
                appendToUserMessage: `suffix ${ctx.attempt}`,
              });
            },
          }),
        ],
      });
      return { agent, model, contexts };
    });
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(fixture.model.calls).toHaveLength(2);
      const first = JSON.stringify(fixture.model.calls[0]!.prompt);
      const second = JSON.stringify(fixture.model.calls[1]!.prompt);
      expect(first).toContain("attempt 1");
      expect(second).toContain("attempt 2");
      expect(second).not.toContain("attempt 1");
      expect(second).not.toContain("suffix 1");
      expect(second.split("suffix 2")).toHaveLength(2); // exactly once
      expect(fixture.contexts).toEqual([
        { attempt: 1, step: 0 },
        { attempt: 2, step: 0 },
      ]);
      expect(result.requests.map((request) => [request.step, request.attempt])).toEqual([
        [0, 1],
        [0, 2],
      ]);
      expect(result.steps[0]!.attempts).toBe(2);
      expect(JSON.stringify(result.messages)).not.toContain("attempt");
    }
  });

  test("hooks get step, isFirstStep, the run's user message and the history", async () => {
    const out = await runBoth(() => {
      const seen: unknown[] = [];
      const model = scriptedModel([{ toolCalls: [{ name: "alpha", args: {} }] }, { text: "ok" }]);
      const agent = createAgent({
        model,
        tools: { alpha: noop },
        hooks: [
          defineHook({
            name: "rewrite",
            on: "run_start",
            kind: "transform",
            handler: (event) => flow.rewriteInput(`${event.input}!`),
          }),
          defineHook({
            name: "look",
            on: "model_request",
            kind: "inspect",
            handler: (event, ctx) => {
              seen.push({
                step: ctx.step,
                attempt: ctx.attempt,
                isFirstStep: event.isFirstStep,
                userMessage: event.userMessage,
                history: event.history.map((message) => message.role),
              });
            },
          }),
        ],
      });
      return { agent, seen };
    }, "hello");
    for (const { fixture } of out.both) {
      expect(fixture.seen).toEqual([
        { step: 0, attempt: 1, isFirstStep: true, userMessage: "hello!", history: ["user"] },
        {
          step: 1,
          attempt: 1,
          isFirstStep: false,
          userMessage: "hello!",
          history: ["user", "assistant", "tool"],
        },
      ]);
    }
  });
});

describe("local validation of the effective request", () => {
  test('toolChoice "required" with activeTools [] errors before any provider call, naming the hook', async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ text: "never" }]);
      const agent = createAgent({
        model,
        tools: { alpha: noop },
        hooks: [
          patcher("require-tools", { toolChoice: "required" }, 1),
          patcher("strip-tools", { activeTools: [] }, 2),
        ],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result.outcome).toBe("error");
      expect(result.hook).toBe("strip-tools");
      expect(result.reason).toContain('"strip-tools"');
      expect(result.reason).toContain("required");
      expect(result.requests).toHaveLength(0);
    }
  });

  test("toolChoice naming a tool another hook's activeTools removed names that hook", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ text: "never" }]);
      const agent = createAgent({
        model,
        tools: { alpha: noop, beta: noop },
        toolChoice: { type: "tool", toolName: "beta" },
        hooks: [patcher("only-alpha", { activeTools: ["alpha"] })],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result.outcome).toBe("error");
      expect(result.hook).toBe("only-alpha");
      expect(result.reason).toContain('"beta"');
      expect(result.reason).toContain('"only-alpha"');
    }
  });

  test("toolChoice may name a tool by its qualified name, like activeTools", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ text: "ok" }]);
      const agent = createAgent({
        model,
        tools: [resolveTool("read", noop, { toolset: "fs" }), resolveTool("get", noop, { toolset: "web" })],
        hooks: [patcher("force-read", { toolChoice: { type: "tool", toolName: "fs.read" } })],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      expect(result.outcome).toBe("completed");
      expect(fixture.model.calls[0]!.toolChoice).toEqual({ type: "tool", toolName: "fs_read" });
    }
  });

  test("a model_request decide deny ends the run before the provider call", async () => {
    const out = await runBoth(() => {
      const model = scriptedModel([{ text: "never" }]);
      const agent = createAgent({
        model,
        hooks: [
          defineHook({
            name: "budget",
            on: "model_request",
            kind: "decide",
            handler: () => flow.deny("over budget"),
          }),
        ],
      });
      return { agent, model };
    });
    for (const { fixture, result } of out.both) {
      expect(fixture.model.calls).toHaveLength(0);
      expect(result).toMatchObject({ outcome: "terminated", reason: "over budget", hook: "budget" });
    }
  });
});
