import { describe, expect, it } from "vitest";
import { unpairedToolCallIds } from "../../context/tool-pairing.js";
import type { ModelMessage } from "../../events/payloads.js";
import type { Flow } from "../../hooks/flow.js";
import { testEvaluation, testServices } from "../build/test-evaluation.js";
import { CONTENT_STRATEGIES, contentSchema } from "./content/index.js";
import { injectedToolName } from "./injected-tool-name.js";
import type { InjectionSpec } from "./injection-spec.js";
import { runInjection } from "./run-injection.js";
import { injectionKey, makeSyntheticCallId, parseSyntheticCallId, stableJson } from "./synthetic-call-id.js";
import { findInjectedPair, syntheticPair } from "./synthetic-pair.js";

describe("name resolution (seed 000)", () => {
  it("toolset + tool, sanitized; without a toolset, verbatim", () => {
    expect(injectedToolName("memory_server", "get_memories")).toBe("memory_server_get_memories");
    expect(injectedToolName("user prefs.api", "get/preferences")).toBe("user_prefs_api_get_preferences");
    expect(injectedToolName(undefined, "My_Summarizer_tool")).toBe("My_Summarizer_tool");
    const long = injectedToolName("a".repeat(40), "b".repeat(40));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe("synthetic call ids", () => {
  it("carry the injection's key and the TTL expiry; valid for every provider", () => {
    const key = injectionKey("memory_server_get_memories", { user_id: "current" });
    const id = makeSyntheticCallId(key, { type: "text", value: "x" }, 1_767_258_000);
    expect(id).toMatch(/^[A-Za-z0-9_]{1,40}$/);
    expect(parseSyntheticCallId(id)).toEqual({ key, expiresAt: 1_767_258_000 });
    expect(parseSyntheticCallId(makeSyntheticCallId(key, "x"))).toEqual({ key });
    expect(parseSyntheticCallId("call_1_0")).toBeUndefined();
  });

  it("the key ignores argument order; the content hash follows the content", () => {
    expect(injectionKey("t", { a: 1, b: 2 })).toBe(injectionKey("t", { b: 2, a: 1 }));
    expect(injectionKey("t", { a: 1 })).not.toBe(injectionKey("t", { a: 2 }));
    expect(injectionKey("t", {})).not.toBe(injectionKey("u", {}));
    expect(makeSyntheticCallId("0123456789", "a")).not.toBe(makeSyntheticCallId("0123456789", "b"));
    expect(stableJson({ b: [1, { d: 1, c: 2 }], a: undefined })).toBe('{"b":[1,{"c":2,"d":1}]}');
  });

  it("finds the latest pair of an injection, and only a real pair", () => {
    const key = injectionKey("t", {});
    const older = syntheticPair({
      toolName: "t",
      args: {},
      callId: makeSyntheticCallId(key, 1),
      output: { type: "text", value: "1" },
    });
    const newer = syntheticPair({
      toolName: "t",
      args: {},
      callId: makeSyntheticCallId(key, 2),
      output: { type: "text", value: "2" },
    });
    const messages: ModelMessage[] = [{ role: "user", content: "q" }, ...older, ...newer];
    expect(findInjectedPair(messages, key)).toMatchObject({
      call: newer[0],
      result: newer[1],
      output: { value: "2" },
    });
    expect(findInjectedPair(messages, injectionKey("other", {}))).toBeUndefined();
    // A result whose call is not right before it is not a pair of ours.
    expect(findInjectedPair([newer[1]!, newer[0]!], key)).toBeUndefined();
  });
});

describe("content strategies", () => {
  it("are a registry: tool and static", () => {
    expect([...CONTENT_STRATEGIES().keys()]).toEqual(["tool", "static"]);
    expect(contentSchema().safeParse({ strategy: "static", value: "x" }).success).toBe(true);
    const unknown = contentSchema().safeParse({ strategy: "llm" });
    expect(unknown.error?.issues[0]?.message).toBe('unknown content strategy "llm"; valid: tool, static');
    const missing = contentSchema().safeParse({ strategy: "static" });
    expect(missing.error?.issues[0]?.path).toEqual(["value"]);
  });
});

describe("runInjection", () => {
  const spec = (overrides: Partial<InjectionSpec> = {}): InjectionSpec => ({
    label: "test",
    toolsetName: "prefs",
    toolName: "get",
    arguments: { user: "u1" },
    frequency: "append_if_changed",
    content: { strategy: "tool" },
    ...overrides,
  });

  function setup(answer: () => unknown) {
    const services = testServices("/w", { prefs_get: answer });
    let now = 1_000_000_000_000;
    services.now = () => now;
    return {
      services,
      advance: (ms: number) => {
        now += ms;
      },
      run: async (injection: InjectionSpec, messages: ModelMessage[]) =>
        (await runInjection(injection, testEvaluation({ context: { messages } }), services)) as
          | Flow
          | undefined,
    };
  }

  /** Applies a flow like the loop would (inject appends; replaceMessages replaces in place). */
  function apply(messages: ModelMessage[], result: Flow | undefined): ModelMessage[] {
    if (!result) return messages;
    if (result.type === "inject") return [...messages, ...result.messages];
    if (result.type !== "editMessages") throw new Error(`unexpected ${result.type}`);
    let next = [...messages];
    for (const edit of result.edits) {
      if (edit.kind !== "replace") throw new Error("unexpected compaction");
      const at = next.indexOf(edit.targets[0]!);
      next = next.filter((message) => !edit.targets.includes(message));
      next.splice(at, 0, ...edit.messages);
    }
    return next;
  }

  it("calls the tool by its resolved name with the arguments, and injects a valid pair", async () => {
    const { services, run } = setup(() => ({ units: "metric" }));
    const result = await run(spec(), [{ role: "user", content: "q" }]);
    expect(services.calls).toEqual([{ name: "prefs_get", args: { user: "u1" } }]);
    expect(result?.type).toBe("inject");
    const [assistant, tool] = (result as Extract<Flow, { type: "inject" }>).messages;
    expect(assistant).toMatchObject({
      role: "assistant",
      content: [{ type: "tool-call", toolName: "prefs_get", input: { user: "u1" } }],
    });
    expect(tool).toMatchObject({
      role: "tool",
      content: [
        { type: "tool-result", toolName: "prefs_get", output: { type: "json", value: { units: "metric" } } },
      ],
    });
  });

  it("always: a new pair every time", async () => {
    const { run } = setup(() => "same");
    let messages: ModelMessage[] = [];
    for (let index = 0; index < 3; index++)
      messages = apply(messages, await run(spec({ frequency: "always" }), messages));
    expect(messages).toHaveLength(6);
    // Equal pairs, distinct ids: providers reject two tool calls with one id.
    const ids = messages.map((message) => (message.content as { toolCallId: string }[])[0]!.toolCallId);
    expect(new Set(ids).size).toBe(3);
    expect(unpairedToolCallIds(messages).size).toBe(0);
  });

  it("once: never again once a pair is in the history", async () => {
    let value = 0;
    const { services, run } = setup(() => ++value);
    let messages: ModelMessage[] = [];
    for (let index = 0; index < 3; index++)
      messages = apply(messages, await run(spec({ frequency: "once" }), messages));
    expect(messages).toHaveLength(2);
    expect(services.calls).toHaveLength(1);
  });

  it("append_if_changed: the same result changes nothing, a different one is appended", async () => {
    let value = "a";
    const { run } = setup(() => value);
    let messages = apply([], await run(spec(), []));
    expect(await run(spec(), messages)).toBeUndefined();
    value = "b";
    messages = apply(messages, await run(spec(), messages));
    expect(messages).toHaveLength(4);
  });

  it("TTL: fresh → no call; expired + same result → the pair is replaced with a new expiry", async () => {
    const { services, run, advance } = setup(() => "same");
    const ttl = spec({ refresh: { kind: "ttl", ttlMinutes: 10 } });
    let messages = apply([], await run(ttl, []));
    const firstId = (messages[0]!.content as { toolCallId: string }[])[0]!.toolCallId;
    advance(9 * 60_000 + 59_000);
    expect(await run(ttl, messages)).toBeUndefined();
    expect(services.calls).toHaveLength(1);
    advance(1_000); // exactly at the expiry: stale
    const refreshed = await run(ttl, messages);
    expect(refreshed?.type).toBe("editMessages");
    messages = apply(messages, refreshed);
    expect(messages).toHaveLength(2);
    const secondId = (messages[0]!.content as { toolCallId: string }[])[0]!.toolCallId;
    expect(parseSyntheticCallId(secondId)!.expiresAt! - parseSyntheticCallId(firstId)!.expiresAt!).toBe(600);
  });

  it("static content: no tool call", async () => {
    const { services, run } = setup(() => "unused");
    const result = await run(spec({ content: { strategy: "static", value: "House rules." } }), []);
    expect(services.calls).toEqual([]);
    expect(JSON.stringify(result)).toContain("House rules.");
  });

  it("a throwing tool: logged, nothing injected; a tool's error content is injected as-is", async () => {
    const failing = setup(() => {
      throw new Error("API down");
    });
    expect(await failing.run(spec(), [])).toBeUndefined();
    expect(failing.services.logs).toEqual([
      expect.objectContaining({
        level: "warn",
        message: "injection test: prefs_get failed, nothing injected: API down",
      }),
    ]);
    const fallback = setup(() => "Error: preferences unavailable, using defaults");
    expect(JSON.stringify(await fallback.run(spec(), []))).toContain("preferences unavailable");
  });

  it("an unknown tool is a failing tool", async () => {
    const { services, run } = setup(() => "x");
    expect(await run(spec({ toolsetName: "nope" }), [])).toBeUndefined();
    expect(services.logs[0]!.message).toContain('unknown tool "nope_get"');
  });
});
