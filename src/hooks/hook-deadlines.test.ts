/**
 * Hooks that answer with a promise race their timeout and the run's abort under one timer
 * and one abort listener per run (hook-deadlines.ts): the semantics stay those of a timer
 * per hook — a hook that times out fails closed naming itself, never before its timeout —
 * at any number of hooks and runs in flight, with no listener warnings.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { type AnyHook, createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";
import { HookDeadlines } from "./hook-deadlines.js";
import type { RegisteredHook } from "./hook-registry.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function registered(name: string, timeoutMs: number): RegisteredHook {
  return { name, event: "tool_call", kind: "decide", timeoutMs } as RegisteredHook;
}

describe("HookDeadlines", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("a pending hook times out no earlier than its timeout, and then fails naming itself", async () => {
    vi.useFakeTimers();
    const deadlines = new HookDeadlines();
    const settled: string[] = [];
    for (const [name, timeoutMs] of [
      ["slow-a", 100],
      ["slow-b", 300],
    ] as const)
      void deadlines.race(registered(name, timeoutMs), new Promise(() => {})).then((invocation) => {
        if (!invocation.ok) settled.push(`${invocation.error.reason}: ${invocation.error.message}`);
      });
    await vi.advanceTimersByTimeAsync(99);
    expect(settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(30);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatch(/^timeout: .*"slow-a".*timed out after 100 ms/);
    await vi.advanceTimersByTimeAsync(160);
    expect(settled).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60);
    expect(settled).toHaveLength(2);
    expect(settled[1]).toMatch(/"slow-b".*timed out after 300 ms/);
  });

  test("an answer in time wins; its late timeout changes nothing", async () => {
    vi.useFakeTimers();
    const deadlines = new HookDeadlines();
    let answer!: (value: unknown) => void;
    const outcome = deadlines.race(
      registered("quick", 50),
      new Promise((resolve) => {
        answer = resolve;
      }),
    );
    await vi.advanceTimersByTimeAsync(20);
    answer(undefined);
    await vi.advanceTimersByTimeAsync(200);
    await expect(outcome).resolves.toEqual({ ok: true, result: undefined });
  });

  test("an abort fails every pending hook at once, through one listener whatever their number", async () => {
    const controller = new AbortController();
    const deadlines = new HookDeadlines(controller.signal);
    const outcomes = Array.from({ length: 60 }, (_, index) =>
      deadlines.race(registered(`pending-${index}`, 30_000), new Promise(() => {})),
    );
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    const settled = await Promise.all(outcomes);
    expect(settled.every((invocation) => !invocation.ok && invocation.error.reason === "aborted")).toBe(true);
    expect(!settled[7]!.ok && settled[7]!.error.message).toMatch(/"pending-7".*cancelled/);
    // A hook that starts after the abort fails at once (its late rejection is handled).
    const late = await deadlines.race(registered("late", 30_000), Promise.reject(new Error("late")));
    expect(!late.ok && late.error.reason).toBe("aborted");
    deadlines.close();
  });
  test("hooks settling in any order leave nothing pending, and a later hook still times out", async () => {
    vi.useFakeTimers();
    const deadlines = new HookDeadlines();
    const answers: ((value: unknown) => void)[] = [];
    const outcomes = Array.from({ length: 50 }, (_, index) =>
      deadlines.race(
        registered(`quick-${index}`, 1_000),
        new Promise((resolve) => {
          answers.push(resolve);
        }),
      ),
    );
    // Middle, last, first, then the rest: every unlinking case of the pending list.
    const order = [25, 49, 0, ...Array.from({ length: 50 }, (_, index) => index)];
    for (const index of order) answers[index]!(undefined);
    const settled = await Promise.all(outcomes);
    expect(settled.every((invocation) => invocation.ok)).toBe(true);
    expect(deadlines.live).toBe(0);
    const stuck = deadlines.race(registered("stuck", 100), new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(150);
    const late = await stuck;
    expect(!late.ok && late.error.message).toMatch(/"stuck".*timed out after 100 ms/);
    expect(deadlines.live).toBe(0);
    deadlines.close();
  });
});

/** One `write` call guarded by `perRun` quick async transforms and one decide that never answers. */
function guardedAgent(index: number, written: string[]) {
  const hooks: AnyHook[] = [
    ...Array.from({ length: 10 }, (_, hook) =>
      defineHook({
        name: `quick-${hook}`,
        on: "tool_call",
        kind: "transform",
        handler: async () => undefined,
      }),
    ),
    defineHook({
      name: `stuck-guard-${index}`,
      on: "tool_call",
      kind: "decide",
      timeoutMs: 30,
      handler: () => new Promise<undefined>(() => {}),
    }),
  ];
  return createAgent({
    model: scriptedModel([
      { toolCalls: [{ name: "write", args: { path: `${index}.txt` } }] },
      { text: "done" },
    ]),
    logger: silent,
    tools: {
      write: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => {
          written.push(path);
          return `wrote ${path}`;
        },
      }),
    },
    hooks,
  });
}

describe("async hooks under concurrency", () => {
  test.each(SURFACES)(
    "%s: 40 concurrent runs whose guard times out each fail closed, naming their own hook",
    async (surface) => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on("warning", onWarning);
      const written: string[] = [];
      const controller = new AbortController();
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          runOn(surface, guardedAgent(index, written), "write", { signal: controller.signal }),
        ),
      );
      expect(written).toEqual([]);
      outcomes.forEach(({ result }, index) => {
        expect(result.outcome).toBe("completed");
        const entry = result.events.find((event) => event.effect === "timeout");
        expect(entry).toMatchObject({ hook: `stuck-guard-${index}`, effect: "timeout" });
        // The quick async hooks all answered in time: ten `continue` entries before it.
        expect(result.events.filter((event) => event.hook.startsWith("quick-"))).toHaveLength(10);
      });
      // The caller's signal has one listener, however many runs follow it.
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
      await new Promise((resolve) => setImmediate(resolve));
      process.off("warning", onWarning);
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    },
  );

  test.each(SURFACES)(
    "%s: 60 pending async hooks under a caller's signal emit no MaxListenersExceededWarning",
    async (surface) => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on("warning", onWarning);
      try {
        // Each hook listens to ctx.signal while it waits, as a hook calling fetch() does.
        const hooks = Array.from({ length: 60 }, (_, index) =>
          defineHook({
            name: `waiting-${index}`,
            on: "model_response",
            kind: "inspect",
            handler: (_event, ctx) =>
              new Promise<void>((resolve) => {
                const stop = () => resolve();
                ctx.signal.addEventListener("abort", stop, { once: true });
                setTimeout(() => {
                  ctx.signal.removeEventListener("abort", stop);
                  resolve();
                }, 5);
              }),
          }),
        );
        const agent = createAgent({
          model: scriptedModel([{ text: "one" }]),
          logger: silent,
          hooks: [
            ...hooks,
            ...Array.from({ length: 60 }, (_, index) =>
              defineHook({
                name: `guard-${index}`,
                on: "model_request",
                kind: "transform",
                handler: async () => undefined,
              }),
            ),
          ],
        });
        const controller = new AbortController();
        const { result } = await runOn(surface, agent, "hi", { signal: controller.signal });
        expect(result.outcome).toBe("completed");
        expect(result.events.filter((event) => event.hook.startsWith("waiting-"))).toHaveLength(60);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
      } finally {
        process.off("warning", onWarning);
      }
    },
  );
});

describe("a late answer after a timeout", () => {
  test.each(SURFACES)(
    "%s: a transform that timed out (failing open) answers late; the next pending transform keeps its own answer",
    async (surface) => {
      const ran: unknown[] = [];
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const agent = createAgent({
        model: scriptedModel([{ toolCalls: [{ name: "write", args: { path: "a.txt" } }] }, { text: "done" }]),
        logger: silent,
        tools: {
          write: tool({
            inputSchema: z.object({ path: z.string() }),
            execute: (args) => {
              ran.push(args);
              return "ok";
            },
          }),
        },
        hooks: [
          // Answers first (nothing), so the dispatch goes on reading its hooks one at a time.
          defineHook({ name: "first", on: "tool_call", kind: "transform", handler: async () => undefined }),
          defineHook({
            name: "slow",
            on: "tool_call",
            kind: "transform",
            timeoutMs: 20,
            onError: "fail_open",
            handler: async () => {
              await sleep(120);
              return flow.rewriteArgs({ path: "late.txt" });
            },
          }),
          defineHook({
            name: "next",
            on: "tool_call",
            kind: "transform",
            handler: async () => {
              await sleep(300);
              return flow.rewriteArgs({ path: "next.txt" });
            },
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "write");
      expect(result.outcome).toBe("completed");
      // The late answer of "slow" (at 120 ms) is dropped, not taken for "next"'s.
      expect(ran).toEqual([{ path: "next.txt" }]);
      const effects = result.events.map((entry) => `${entry.hook}:${entry.effect}`);
      expect(effects).toContain("slow:fail_open");
      expect(effects).toContain("next:rewriteArgs");
    },
  );
});
