import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { delay, runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";

/** A tool that tells the test when it started, then waits for its signal (or, ignoring it, 200 ms). */
function slowTool(options: { honoursSignal: boolean }) {
  const seen: { signal?: AbortSignal; started: () => void; whenStarted: Promise<void>; finished: boolean } = {
    started: () => {},
    whenStarted: Promise.resolve(),
    finished: false,
  };
  seen.whenStarted = new Promise<void>((resolve) => {
    seen.started = resolve;
  });
  const definition = tool({
    inputSchema: { type: "object" },
    execute: async (_args, { signal }) => {
      seen.signal = signal;
      seen.started();
      if (options.honoursSignal) await delay(10_000, signal);
      else await delay(200);
      seen.finished = true;
      return "late";
    },
  });
  return { definition, seen };
}

describe("AbortSignal", () => {
  it.each(SURFACES)(
    "%s: aborting mid-tool ends the run with outcome error and aborts the tool's signal",
    async (surface) => {
      const { definition, seen } = slowTool({ honoursSignal: true });
      const model = scriptedModel([{ toolCalls: [{ id: "s1", name: "slow" }] }, { text: "never" }]);
      const agent = createAgent({ model, tools: { slow: definition } });
      const controller = new AbortController();
      void seen.whenStarted.then(() => controller.abort());

      const started = Date.now();
      const { result, events } = await runOn(surface, agent, "go", {
        signal: controller.signal,
        sessionId: "a",
      });

      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result.outcome).toBe("error");
      expect(result.reason).toMatch(/abort/i);
      expect(seen.signal?.aborted).toBe(true);
      expect(seen.finished).toBe(false);
      expect(model.calls).toHaveLength(1);
      // The interrupted batch is not committed: no tool call without its result.
      expect(result.messages).toEqual([{ role: "user", content: "go" }]);
      expect(result.steps).toEqual([]);
      if (surface === "stream") {
        expect(events.at(-1)?.type).toBe("run-finish");
        expect(events.some((event) => event.type === "tool-result")).toBe(false);
      }
    },
  );

  it.each(SURFACES)(
    "%s: a tool that ignores its signal does not keep the aborted run alive",
    async (surface) => {
      const { definition, seen } = slowTool({ honoursSignal: false });
      const model = scriptedModel([{ toolCalls: [{ id: "s1", name: "slow" }] }, { text: "never" }]);
      const agent = createAgent({ model, tools: { slow: definition } });
      const controller = new AbortController();
      void seen.whenStarted.then(() => controller.abort());

      const { result } = await runOn(surface, agent, "go", { signal: controller.signal });

      expect(result.outcome).toBe("error");
      expect(result.reason).toMatch(/abort/i);
      // The run returned before the tool (which waits 200 ms) finished, and dropped its result.
      expect(seen.finished).toBe(false);
      expect(JSON.stringify(result.messages)).not.toContain("late");
      expect(model.calls).toHaveLength(1);
    },
  );

  it.each(SURFACES)("%s: concurrent in-flight tools are all cancelled", async (surface) => {
    const signals: AbortSignal[] = [];
    let release: () => void = () => {};
    const allStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: "a", name: "wait" },
          { id: "b", name: "wait" },
        ],
      },
    ]);
    const agent = createAgent({
      model,
      toolConcurrency: 2,
      tools: {
        wait: tool({
          inputSchema: { type: "object" },
          execute: async (_args, { signal }) => {
            signals.push(signal);
            if (signals.length === 2) release();
            await delay(10_000, signal);
          },
        }),
      },
    });
    const controller = new AbortController();
    void allStarted.then(() => controller.abort());
    const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
    expect(result.outcome).toBe("error");
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it.each(SURFACES)("%s: an already-aborted signal never calls the model", async (surface) => {
    const model = scriptedModel([{ text: "never" }]);
    const agent = createAgent({ model });
    const { result } = await runOn(surface, agent, "go", { signal: AbortSignal.abort() });
    expect(result.outcome).toBe("error");
    expect(result.reason).toMatch(/abort/i);
    expect(model.calls).toHaveLength(0);
  });

  it.each(SURFACES)("%s: aborting during a slow model call ends the run", async (surface) => {
    const model = scriptedModel([{ text: "slow answer", delayMs: 10_000 }]);
    const agent = createAgent({ model });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
    expect(result.outcome).toBe("error");
    expect(result.reason).toMatch(/abort/i);
    expect(model.calls[0]!.abortSignal?.aborted).toBe(true);
  });

  it.each(SURFACES)(
    "%s: a model that ignores its abortSignal does not keep the run alive",
    async (surface) => {
      const never = new Promise<never>(() => {});
      const model = new MockLanguageModelV3({ doGenerate: () => never, doStream: () => never });
      const agent = createAgent({ model });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
      expect(result.outcome).toBe("error");
      expect(result.reason).toMatch(/abort/i);
    },
    5_000,
  );

  it.each(SURFACES)(
    "%s: aborting during a retry backoff ends the run without another attempt",
    async (surface) => {
      const model = scriptedModel([{ error: { status: 429 } }, { text: "never" }]);
      const agent = createAgent({ model, retry: { initialDelayMs: 10_000 } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
      expect(result.outcome).toBe("error");
      expect(result.reason).toMatch(/abort/i);
      expect(model.calls).toHaveLength(1);
    },
  );

  it.each(SURFACES)(
    "%s: the caller's abort reason is reported the same way wherever the abort lands",
    async (surface) => {
      const inModel = createAgent({ model: scriptedModel([{ text: "slow", delayMs: 10_000 }]) });
      const inTool = createAgent({
        model: scriptedModel([{ toolCalls: [{ name: "wait" }] }]),
        tools: {
          wait: tool({
            inputSchema: { type: "object" },
            execute: (_args, { signal }) => delay(10_000, signal),
          }),
        },
      });
      const reasons: (string | undefined)[] = [];
      for (const agent of [inModel, inTool]) {
        const controller = new AbortController();
        setTimeout(() => controller.abort("user pressed stop"), 20);
        const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
        expect(result.outcome).toBe("error");
        reasons.push(result.reason);
      }
      expect(reasons).toEqual(["aborted: user pressed stop", "aborted: user pressed stop"]);
    },
  );

  it.each(SURFACES)(
    "%s: a sibling whose hooks were still running never starts its body after the abort",
    async (surface) => {
      const controller = new AbortController();
      const bodies: string[] = [];
      let hookDone: () => void = () => {};
      const hookFinished = new Promise<void>((resolve) => {
        hookDone = resolve;
      });
      const aborted = new Promise<void>((resolve) =>
        controller.signal.addEventListener("abort", () => resolve()),
      );
      const model = scriptedModel([
        {
          toolCalls: [
            { id: "a", name: "aborter" },
            { id: "b", name: "late" },
          ],
        },
      ]);
      const agent = createAgent({
        model,
        toolConcurrency: 2,
        tools: {
          aborter: tool({
            inputSchema: { type: "object" },
            execute: async (_args, { signal }) => {
              bodies.push("aborter");
              controller.abort();
              await delay(10_000, signal);
            },
          }),
          late: tool({
            inputSchema: { type: "object" },
            execute: () => {
              bodies.push("late");
              return "ran after the abort";
            },
          }),
        },
        hooks: [
          defineHook({
            name: "slow-gate",
            on: "tool_call",
            kind: "decide",
            match: "late",
            handler: async () => {
              await aborted;
              setTimeout(hookDone, 0);
              return flow.allow();
            },
          }),
        ],
      });
      const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
      expect(result.outcome).toBe("error");
      await hookFinished;
      await delay(5);
      expect(bodies).toEqual(["aborter"]);
    },
  );
});
