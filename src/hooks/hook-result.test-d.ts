/**
 * Hook result typing is the API (DESIGN §11, STYLE "Tests"): a result the event does not
 * accept is a compile error; handlers see their event's payload.
 */
import { describe, expectTypeOf, test } from "vitest";
import {
  defineHook,
  type EventPayload,
  type Flow,
  flow,
  type HookResult,
  type ModelMessage,
} from "../index.js";

type Types<R> = Extract<R, { type: string }>["type"];

describe("HookResult per event", () => {
  test('HookResult<"tool_call"> admits rewriteArgs, skip, allow, deny, ask, terminate — not rewriteResult', () => {
    expectTypeOf<Types<HookResult<"tool_call">>>().toEqualTypeOf<
      "rewriteArgs" | "skip" | "allow" | "deny" | "ask" | "terminate"
    >();
    expectTypeOf<Extract<HookResult<"tool_call">, { type: "rewriteResult" }>>().toBeNever();
    expectTypeOf(flow.rewriteArgs({})).toExtend<HookResult<"tool_call">>();
    expectTypeOf(flow.rewriteResult("x")).not.toExtend<HookResult<"tool_call">>();
    expectTypeOf(undefined).toExtend<HookResult<"tool_call">>();
  });

  test("per kind: decide results on tool_call, transform results on tool_result, nothing for inspect", () => {
    expectTypeOf<Types<HookResult<"tool_call", "decide">>>().toEqualTypeOf<"allow" | "deny" | "ask">();
    expectTypeOf<Types<HookResult<"tool_call", "transform">>>().toEqualTypeOf<
      "rewriteArgs" | "skip" | "terminate"
    >();
    expectTypeOf<Types<HookResult<"tool_result", "transform">>>().toEqualTypeOf<
      "rewriteResult" | "terminate"
    >();
    expectTypeOf<Types<HookResult<"model_request", "transform">>>().toEqualTypeOf<"patch" | "terminate">();
    expectTypeOf<Types<HookResult<"invalid_tool_call">>>().toEqualTypeOf<
      "retry" | "repair" | "skip" | "terminate"
    >();
    expectTypeOf<HookResult<"tool_call", "inspect">>().toEqualTypeOf<undefined | void>();
    expectTypeOf<Types<HookResult<"model_response">>>().toBeNever();
  });
});

describe("defineHook", () => {
  test("a decide hook on tool_call cannot return flow.rewriteArgs", () => {
    defineHook({
      name: "guard",
      on: "tool_call",
      kind: "decide",
      // @ts-expect-error rewriting is a transform's job, not a decide's
      handler: () => flow.rewriteArgs({ path: "x" }),
    });
    defineHook({
      name: "guard-async",
      on: "tool_call",
      kind: "decide",
      // @ts-expect-error also through a promise
      handler: async () => flow.rewriteArgs({ path: "x" }),
    });
    defineHook({ name: "ok", on: "tool_call", kind: "decide", handler: () => flow.deny("no") });
  });

  test("a tool_call transform cannot return flow.rewriteResult", () => {
    defineHook({
      name: "wrong",
      on: "tool_call",
      kind: "transform",
      // @ts-expect-error rewriteResult belongs to tool_result / tool_error
      handler: () => flow.rewriteResult("x"),
    });
    defineHook({
      name: "right",
      on: "tool_result",
      kind: "transform",
      handler: () => flow.rewriteResult("x"),
    });
  });

  test("inspect handlers return void", () => {
    defineHook({ name: "watch", on: "tool_result", kind: "inspect", handler: () => {} });
    defineHook({ name: "watch-async", on: "tool_result", kind: "inspect", handler: async () => {} });
    defineHook({
      name: "meddler",
      on: "tool_result",
      kind: "inspect",
      // @ts-expect-error an inspection cannot change the flow
      handler: () => flow.rewriteResult("x"),
    });
  });

  test("a kind the event does not take has no result but continue", () => {
    defineHook({
      name: "x",
      on: "model_response",
      kind: "transform",
      // @ts-expect-error model_response is inspect-only
      handler: () => flow.terminate("no"),
    });
  });

  test("event payloads are typed per event", () => {
    defineHook({
      name: "args",
      on: "tool_call",
      kind: "transform",
      handler: (event, ctx) => {
        expectTypeOf(event.type).toEqualTypeOf<"tool_call">();
        expectTypeOf(event.args).toBeUnknown();
        expectTypeOf(event.original).toEqualTypeOf<unknown>();
        expectTypeOf(event.qualifiedName).toBeString();
        expectTypeOf(event.agentPath).toEqualTypeOf<readonly string[]>();
        expectTypeOf(ctx.attempt).toBeNumber();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        // @ts-expect-error tool_call has no request
        void event.request;
      },
    });
    defineHook({
      name: "request",
      on: "model_request",
      kind: "transform",
      handler: (event) => {
        expectTypeOf(event.request).toEqualTypeOf<EventPayload<"model_request">["request"]>();
        expectTypeOf(event.request.messages).toEqualTypeOf<readonly ModelMessage[]>();
        expectTypeOf(event.userMessage).toBeString();
        expectTypeOf(event.isFirstStep).toBeBoolean();
        // @ts-expect-error model_request has no args
        void event.args;
        return flow.patch({ extraContext: ["x"] });
      },
    });
    defineHook({
      name: "end",
      on: "run_end",
      kind: "transform",
      handler: (event) => {
        expectTypeOf(event.output).toBeString();
        expectTypeOf(event.continuations).toBeNumber();
        if (event.continuations === 0) return flow.retry("check your answer once more");
        return flow.rewriteOutput(event.output.trim());
      },
    });
  });

  test("transcript edits: replaceMessages and compact on run_start, step_start, step_end, run_end only", () => {
    const message: ModelMessage = { role: "user", content: "x" };
    expectTypeOf(flow.replaceMessages(message, message)).toExtend<HookResult<"run_start", "transform">>();
    expectTypeOf(flow.compact({ remove: [message], replacement: [] })).toExtend<HookResult<"step_end">>();
    expectTypeOf<Types<HookResult<"step_start", "transform">>>().toEqualTypeOf<
      "inject" | "editMessages" | "terminate"
    >();
    expectTypeOf<Types<HookResult<"run_end", "transform">>>().toEqualTypeOf<
      "rewriteOutput" | "inject" | "editMessages" | "retry" | "terminate"
    >();
    defineHook({
      name: "compactor",
      on: "run_end",
      kind: "transform",
      handler: (_event, ctx) =>
        flow.compact({
          remove: ctx.messages.slice(0, -2),
          replacement: async (removed) => [{ role: "system", content: `${removed.length} removed` }],
        }),
    });
    defineHook({
      name: "wrong",
      on: "model_request",
      kind: "transform",
      // @ts-expect-error model_request changes the outbound copy only (flow.patch), never the transcript
      handler: () => flow.replaceMessages([], []),
    });
    defineHook({
      name: "wrong-kind",
      on: "run_start",
      kind: "decide",
      // @ts-expect-error a decide hook cannot edit the transcript
      handler: () => flow.compact({ remove: [], replacement: [] }),
    });
    defineHook({
      name: "veto",
      on: "pre_compact",
      kind: "decide",
      handler: (event) => {
        expectTypeOf(event.remove).toEqualTypeOf<readonly ModelMessage[]>();
        expectTypeOf(event.tokens).toBeNumber();
        return event.remove.length > 10 ? flow.deny("too much") : flow.allow();
      },
    });
  });

  test("ctx.contextWindow and ctx.model", () => {
    defineHook({
      name: "measure",
      on: "step_start",
      kind: "inspect",
      handler: async (_event, ctx) => {
        expectTypeOf(ctx.contextWindow?.pressure()).toEqualTypeOf<number | undefined>();
        const answer = await ctx.model?.generate({ messages: [{ role: "user", content: "?" }] });
        expectTypeOf(answer?.text).toEqualTypeOf<string | undefined>();
      },
    });
  });

  test("flow helpers build Flow values", () => {
    expectTypeOf(flow.patch({})).toExtend<Flow>();
    expectTypeOf(flow.terminate("x")).toExtend<HookResult<"model_request">>();
    // @ts-expect-error patch is model_request's only
    defineHook({ name: "p", on: "tool_call", kind: "transform", handler: () => flow.patch({}) });
  });
});
