/**
 * The registry: hooks indexed by event, priority order (lower first, default 100, ties in
 * registration order), `match` over qualified and function names, disposers, validation.
 */
import { describe, expect, test } from "vitest";
import { type AnyEventPayload, type AnyHook, defineHook, HookRegistry } from "../index.js";

const toolCall = (qualifiedName: string, toolName: string): AnyEventPayload => ({
  type: "tool_call",
  agentPath: ["main"],
  toolName,
  qualifiedName,
  toolCallId: "c1",
  args: {},
});

const hook = (name: string, extra: Partial<AnyHook> = {}): AnyHook =>
  ({ name, on: "tool_call", kind: "transform", handler: () => undefined, ...extra }) as AnyHook;

const names = (registry: HookRegistry, payload: AnyEventPayload = toolCall("fs.read", "fs_read")) => {
  const selection = registry.select(payload);
  return {
    transforms: selection.transforms.map((item) => item.name),
    decides: selection.decides.map((item) => item.name),
    inspects: selection.inspects.map((item) => item.name),
  };
};

describe("HookRegistry", () => {
  test("priority: lower first, default 100, ties keep registration order; split by kind", () => {
    const registry = new HookRegistry([
      hook("b"),
      hook("a", { priority: 5 }),
      hook("c", { priority: 100 }),
      hook("d", { kind: "decide" }),
      hook("i2", { kind: "inspect", priority: 200 }),
      hook("i1", { kind: "inspect" }),
    ]);
    registry.register(hook("e"));
    registry.register(hook("z", { priority: -1 }));
    expect(names(registry)).toEqual({
      transforms: ["z", "a", "b", "c", "e"],
      decides: ["d"],
      inspects: ["i1", "i2"],
    });
  });

  test("has: false with no hook, true once one is registered, false again once all are disposed (a disposer twice counts once)", () => {
    const registry = new HookRegistry();
    expect(registry.has("tool_call")).toBe(false);
    const disposeA = registry.register(hook("a"));
    const disposeB = registry.register(hook("b", { on: "run_end", kind: "inspect" }));
    expect(registry.has("tool_call")).toBe(true);
    expect(registry.has("run_end")).toBe(true);
    expect(registry.has("model_request")).toBe(false);
    disposeA();
    disposeA();
    expect(registry.has("tool_call")).toBe(false);
    expect(registry.has("run_end")).toBe(true);
    disposeB();
    expect(registry.has("run_end")).toBe(false);
    registry.register(hook("c"));
    expect(registry.has("tool_call")).toBe(true);
    expect(names(registry).transforms).toEqual(["c"]);
  });

  test("match: picomatch patterns over the qualified and the function name", () => {
    const registry = new HookRegistry([
      hook("qualified", { match: "fs.*" }),
      hook("function", { match: "fs_read" }),
      hook("list", { match: ["web.*", "fs.re?d"] }),
      hook("other", { match: "web.*" }),
      hook("any"),
    ]);
    expect(names(registry).transforms).toEqual(["qualified", "function", "list", "any"]);
    expect(names(registry, toolCall("web.get", "web_get")).transforms).toEqual(["list", "other", "any"]);
    // Selections are cached per names: a different call is re-selected, not served stale.
    expect(names(registry, toolCall("mail.send", "mail_send")).transforms).toEqual(["any"]);
  });

  test("the disposer removes exactly its hook (idempotent) and invalidates cached selections", () => {
    const registry = new HookRegistry([hook("keep")]);
    const dispose = registry.register(hook("gone"));
    expect(names(registry).transforms).toEqual(["keep", "gone"]);
    dispose();
    dispose();
    expect(names(registry).transforms).toEqual(["keep"]);
    expect(registry.size).toBe(1);
  });

  test("an alias registers under its canonical event", () => {
    const registry = new HookRegistry([hook("aliased", { on: "pre_tool_use" as never })]);
    expect(registry.list("tool_call").map((item) => item.name)).toEqual(["aliased"]);
    expect(names(registry).transforms).toEqual(["aliased"]);
  });

  test("scope: self fires for the owning agent only, children for sub-agents only", () => {
    const registry = new HookRegistry([
      hook("all"),
      hook("self", { scope: "self" }),
      hook("children", { scope: "children" }),
    ]);
    const payload = toolCall("fs.read", "fs_read");
    expect(registry.select(payload, 0).transforms.map((item) => item.name)).toEqual(["all", "self"]);
    expect(registry.select(payload, 1).transforms.map((item) => item.name)).toEqual(["all", "children"]);
  });

  test.each([
    ["an unknown event", { on: "tool_cal" }, /unknown event "tool_cal"/],
    [
      "a kind the event does not take",
      { on: "model_response", kind: "transform" },
      /does not take transform/,
    ],
    ["match on a non-tool event", { on: "run_start", match: "x" }, /tool events only/],
    ["a non-positive timeout", { timeoutMs: 0 }, /timeoutMs/],
    ["no handler", { handler: undefined }, /handler must be a function/],
    ["no name", { name: "" }, /non-empty name/],
  ])("rejects %s", (_label, extra, message) => {
    expect(() => new HookRegistry([hook("bad", extra as Partial<AnyHook>)])).toThrow(message);
  });

  test("defineHook returns its definition unchanged", () => {
    const definition = { name: "x", on: "run_start", kind: "inspect", handler: () => {} } as const;
    expect(defineHook(definition)).toBe(definition);
  });
});
