/**
 * The runner's trace and outcomes, hook by hook: a synchronous hook (the fast path) leaves
 * exactly what the same answer given through a promise leaves; the entry of a hook that
 * answered nothing is shared and frozen, with no `detail`.
 */
import { describe, expect, test } from "vitest";
import {
  type AnyEventPayload,
  type AnyHook,
  flow,
  type HookContext,
  type HookLogger,
  HookRegistry,
  HookRunner,
  type HookTraceEntry,
  NOT_FIRED,
  Scratchpad,
} from "../index.js";
import type { HookLiveEvent } from "./trace.js";

const toolCall: AnyEventPayload = {
  type: "tool_call",
  agentPath: ["main"],
  toolName: "echo",
  qualifiedName: "echo",
  toolCallId: "c1",
  args: { text: "x" },
};

function context(): HookContext {
  const session = new Scratchpad();
  return {
    sessionId: "s",
    runId: "r",
    step: 0,
    attempt: 1,
    agentName: "main",
    agentPath: ["main"],
    isStreaming: false,
    signal: new AbortController().signal,
    scratch: { session, run: session, step: session, operation: session },
    log: silent,
  } as unknown as HookContext;
}

const silent: HookLogger = { debug() {}, info() {}, warn() {}, error() {} };

function harness(hooks: AnyHook[]) {
  const live: HookLiveEvent[] = [];
  const warnings: string[] = [];
  const log: HookLogger = { ...silent, warn: (message) => void warnings.push(message) };
  const registry = new HookRegistry(hooks);
  const runner = new HookRunner({
    registries: [{ registry, depth: 0 }],
    // The kept trace (the list itself, as the runner fills it) and the live events.
    keep: { capacity: 8 },
    trace: (event) => live.push(event),
    log,
  });
  return {
    get entries(): HookTraceEntry[] {
      return runner.events();
    },
    live,
    warnings,
    runner,
  };
}

/** One event through a runner: blocking hooks, then inspects; what it left. */
async function fire(hooks: AnyHook[]) {
  const ran = harness(hooks);
  const { warnings, runner } = ran;
  const ctx = context();
  const dispatched = runner.dispatch(toolCall, ctx);
  const outcome = dispatched instanceof Promise ? await dispatched : dispatched;
  runner.inspect(outcome.payload, ctx);
  await runner.settle();
  const { failure, ...rest } = outcome;
  return { entries: ran.entries, live: ran.live, warnings, outcome: { ...rest, failure: failure?.message } };
}

const ANSWERS: Record<string, unknown> = {
  undefined: undefined,
  null: null,
  notFired: NOT_FIRED,
  number: 42,
  rewriteArgs: flow.rewriteArgs({ text: "y" }),
  skip: flow.skip("skipped"),
  terminate: flow.terminate("stop"),
  allow: flow.allow(),
  deny: flow.deny("no"),
  ask: flow.ask({ reason: "why" }),
  wrong: flow.rewriteResult("r"),
};

describe("HookRunner: the synchronous path leaves what the promise path leaves", () => {
  for (const kind of ["transform", "decide", "inspect"] as const) {
    for (const [label, answer] of Object.entries(ANSWERS)) {
      for (const failOpen of [false, true]) {
        test(`${kind} answering ${label}${failOpen ? " (fail_open)" : ""}`, async () => {
          const hooks = (asynchronous: boolean): AnyHook[] => [
            {
              name: "h",
              on: "tool_call",
              kind,
              ...(failOpen ? { onError: "fail_open" as const } : {}),
              handler: () => (asynchronous ? Promise.resolve(answer) : answer),
            } as AnyHook,
            { name: "after", on: "tool_call", kind, handler: () => undefined } as AnyHook,
          ];
          const sync = await fire(hooks(false));
          const later = await fire(hooks(true));
          // Inspects run concurrently: a pending one's entry lands after later synchronous ones.
          if (kind === "inspect") {
            later.entries.sort((a, b) => b.hook.localeCompare(a.hook));
            for (const event of later.live)
              event.firings = [...event.firings].sort((a, b) => b.hook.localeCompare(a.hook));
          }
          expect(sync).toEqual(later);
        });
      }
    }
    test(`${kind} that throws, sync and async alike`, async () => {
      const hooks = (asynchronous: boolean): AnyHook[] => [
        {
          name: "h",
          on: "tool_call",
          kind,
          handler: () => {
            if (asynchronous) return Promise.reject(new Error("boom"));
            throw new Error("boom");
          },
        } as AnyHook,
      ];
      const sync = await fire(hooks(false));
      expect(sync).toEqual(await fire(hooks(true)));
      expect(sync.entries).toEqual([
        {
          event: "tool_call",
          hook: "h",
          kind,
          effect: "error",
          // An inspection's failure names the call too: it is about that call.
          toolCallId: "c1",
          toolName: "echo",
          detail: 'hook "h" on tool_call: threw: boom',
        },
      ]);
    });
  }
});

describe("HookRunner: trace entries", () => {
  test("a hook that answered nothing leaves a shared, frozen entry with no detail", async () => {
    const ran = harness([
      { name: "t", on: "tool_call", kind: "transform", handler: () => undefined },
      { name: "d", on: "tool_call", kind: "decide", handler: () => null },
      { name: "i", on: "tool_call", kind: "inspect", handler: () => "ignored" },
    ] as AnyHook[]);
    const ctx = context();
    for (let round = 0; round < 2; round++) {
      ran.runner.dispatch(toolCall, ctx);
      ran.runner.inspect(toolCall, ctx);
    }
    const { entries, live } = ran;
    const once = [
      { event: "tool_call", hook: "t", kind: "transform", effect: "continue" },
      { event: "tool_call", hook: "d", kind: "decide", effect: "continue" },
      { event: "tool_call", hook: "i", kind: "inspect", effect: "observed" },
    ];
    expect(entries).toEqual([...once, ...once]);
    for (const entry of entries) {
      expect(Object.isFrozen(entry)).toBe(true);
      expect("detail" in entry).toBe(false);
    }
    expect(entries[3]).toBe(entries[0]);
    // Live, one `hook` event per dispatch, carrying the trace's own entries: nothing copied.
    const dispatched = { type: "hook", event: "tool_call", firings: [once[0], once[1]] };
    const inspected = { type: "hook", event: "tool_call", firings: [once[2]] };
    expect(live).toEqual([dispatched, inspected, dispatched, inspected]);
    expect(live.flatMap((event) => event.firings).every((entry, index) => entry === entries[index])).toBe(
      true,
    );
  });

  test("an answer with a detail gets its own entry; NOT_FIRED leaves none", async () => {
    const { entries, live } = await fire([
      { name: "quiet", on: "tool_call", kind: "transform", handler: () => NOT_FIRED },
      { name: "d", on: "tool_call", kind: "decide", handler: () => flow.deny("not today") },
    ] as AnyHook[]);
    expect(entries).toEqual([
      {
        event: "tool_call",
        hook: "d",
        kind: "decide",
        effect: "deny",
        toolCallId: "c1",
        toolName: "echo",
        detail: "not today",
      },
    ]);
    expect(Object.isFrozen(entries[0])).toBe(false);
    expect(live).toEqual([{ type: "hook", event: "tool_call", firings: [entries[0]] }]);
    expect(live[0]!.firings[0]).toBe(entries[0]);
  });

  test("a handler is called with its hook definition as `this`", async () => {
    const seen: unknown[] = [];
    const definition = {
      name: "self",
      on: "tool_call",
      kind: "inspect",
      handler(this: unknown) {
        seen.push(this);
      },
    } as AnyHook;
    await fire([definition]);
    expect(seen).toEqual([definition]);
    expect(seen[0]).toBe(definition);
  });
});

describe("HookRunner: live events, one per dispatch", () => {
  const decide = (name: string, answer: (event: AnyEventPayload) => unknown): AnyHook =>
    ({ name, on: "tool_call", kind: "decide", handler: answer }) as AnyHook;

  for (const asynchronous of [false, true]) {
    const answer = (value: unknown) => () => (asynchronous ? Promise.resolve(value) : value);
    test(`a dispatch's firings come in one event, the deny's last (${asynchronous ? "async" : "sync"} hooks)`, async () => {
      const { entries, live } = await fire([
        decide("a", answer(undefined)),
        decide("b", answer(flow.allow())),
        decide("c", answer(flow.deny("no"))),
        decide("never", answer(undefined)),
      ]);
      expect(entries.map((entry) => `${entry.hook}:${entry.effect}`)).toEqual([
        "a:continue",
        "b:allow",
        "c:deny",
      ]);
      expect(live).toEqual([{ type: "hook", event: "tool_call", firings: entries }]);
    });

    test(`a failing hook's firing is sent before the dispatch's outcome comes back (${asynchronous ? "async" : "sync"})`, async () => {
      const ran = harness([
        decide("a", answer(undefined)),
        decide("boom", () => (asynchronous ? Promise.reject(new Error("boom")) : failNow())),
      ]);
      const dispatched = ran.runner.dispatch(toolCall, context());
      const outcome = dispatched instanceof Promise ? await dispatched : dispatched;
      expect(outcome.failure?.message).toContain("boom");
      expect(ran.live).toHaveLength(1);
      expect(ran.live[0]!.firings.map((entry) => `${entry.hook}:${entry.effect}`)).toEqual([
        "a:continue",
        "boom:error",
      ]);
    });
  }

  test("dispatches under way at once keep their own firings", async () => {
    const gates: (() => void)[] = [];
    const slow = (name: string): AnyHook =>
      decide(name, () => new Promise<undefined>((resolve) => gates.push(() => resolve(undefined))));
    const ran = harness([slow("first"), slow("second")]);
    const ctx = context();
    const one = ran.runner.dispatch(toolCall, ctx) as Promise<unknown>;
    const two = ran.runner.dispatch({ ...toolCall, toolCallId: "c2" }, ctx) as Promise<unknown>;
    // Each dispatch waits on its first hook; the second dispatch's goes on first.
    gates[1]!();
    await Promise.resolve();
    await Promise.resolve();
    gates[2]!();
    await two;
    expect(ran.live).toHaveLength(1);
    gates[0]!();
    await Promise.resolve();
    await Promise.resolve();
    gates[3]!();
    await one;
    expect(ran.live.map((event) => event.firings.map((entry) => entry.hook))).toEqual([
      ["first", "second"],
      ["first", "second"],
    ]);
    expect(ran.entries).toHaveLength(4);
  });

  test("a dispatch a hook starts inside another's sends its own event first; the outer keeps its firings", async () => {
    let runner!: HookRunner;
    const ctx = context();
    const inner = { ...toolCall, toolCallId: "inner" };
    const ran = harness([
      decide("before", () => undefined),
      decide("nests", (event: AnyEventPayload) => {
        if (event.type === "tool_call" && event.toolCallId !== "inner") runner.dispatch(inner, ctx);
        return undefined;
      }),
      decide("after", () => flow.deny("no")),
    ] as AnyHook[]);
    runner = ran.runner;
    runner.dispatch(toolCall, ctx);
    expect(ran.live.map((event) => event.firings.map((entry) => `${entry.hook}:${entry.effect}`))).toEqual([
      ["before:continue", "nests:continue", "after:deny"],
      ["before:continue", "nests:continue", "after:deny"],
    ]);
    // The inner dispatch ended first: its firings are the trace's 2nd to 4th entries.
    expect(ran.live[0]!.firings).toEqual(ran.entries.slice(1, 4));
    expect(ran.live[1]!.firings).toEqual([ran.entries[0], ran.entries[4], ran.entries[5]]);
  });

  test("inspections that answered with a promise join their dispatch's one event once all settled", async () => {
    let release!: () => void;
    const ran = harness([
      { name: "now", on: "tool_call", kind: "inspect", handler: () => undefined },
      {
        name: "later",
        on: "tool_call",
        kind: "inspect",
        handler: () => new Promise<void>((resolve) => (release = resolve)),
      },
    ] as AnyHook[]);
    ran.runner.inspect(toolCall, context());
    expect(ran.live).toEqual([]);
    release();
    await ran.runner.settle();
    expect(ran.live).toHaveLength(1);
    expect(ran.live[0]!.firings.map((entry) => entry.hook)).toEqual(["now", "later"]);
  });

  test("without live output nothing is batched and the trace is the same", async () => {
    const registry = new HookRegistry([decide("a", () => undefined), decide("b", () => flow.deny("no"))]);
    const runner = new HookRunner({
      registries: [{ registry, depth: 0 }],
      keep: { capacity: 4 },
      log: silent,
    });
    runner.dispatch(toolCall, context());
    expect(runner.events().map((entry) => entry.effect)).toEqual(["continue", "deny"]);
  });
});

function failNow(): never {
  throw new Error("boom");
}

describe("HookRunner: async hooks that wait one after another", () => {
  const later = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
  const appended = (suffix: string) => (payload: { args: { text: string } }) =>
    Promise.resolve(flow.rewriteArgs({ text: `${payload.args.text}${suffix}` }));

  test("each answer is read as its own hook's, also after one of them timed out and its late answer came", async () => {
    // The slow hook answers only once the others were read (a timer of its own would race the
    // deadline's tick on a loaded machine, where both can fall due in one turn of the loop).
    let answerLate!: () => void;
    const late = new Promise((resolve) => {
      answerLate = () => resolve(flow.rewriteArgs({ text: "LATE" }));
    });
    const hooks = [
      { name: "one", on: "tool_call", kind: "transform", handler: appended("1") },
      {
        name: "slow",
        on: "tool_call",
        kind: "transform",
        timeoutMs: 20,
        onError: "fail_open",
        handler: () => late,
      },
      { name: "three", on: "tool_call", kind: "transform", handler: appended("3") },
      { name: "four", on: "tool_call", kind: "transform", handler: appended("4") },
      {
        name: "judge",
        on: "tool_call",
        kind: "decide",
        handler: (payload: { args: { text: string } }) =>
          Promise.resolve(flow.deny(`saw ${payload.args.text}`)),
      },
    ] as unknown as AnyHook[];
    const { entries, outcome } = await fire(hooks);
    const seen = () => entries.map((entry) => [entry.hook, entry.effect, entry.detail]);
    expect(outcome.payload).toMatchObject({ args: { text: "x134" } });
    expect(outcome.terminal).toMatchObject({ hook: "judge", flow: { type: "deny", reason: "saw x134" } });
    expect(seen()).toEqual([
      ["one", "rewriteArgs", { text: "x1" }],
      ["slow", "fail_open", expect.stringContaining("timed out")],
      ["three", "rewriteArgs", { text: "x13" }],
      ["four", "rewriteArgs", { text: "x134" }],
      ["judge", "deny", "saw x134"],
    ]);
    // The slow hook's answer comes after all that: dropped, nothing changes.
    const before = seen();
    answerLate();
    await later(20, undefined);
    expect(seen()).toEqual(before);
    expect(outcome.payload).toMatchObject({ args: { text: "x134" } });
  });
});
