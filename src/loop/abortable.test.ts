import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, scriptedModel, tool } from "../index.js";
import { abortable, NEVER_ABORTED } from "./abortable.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("abortable", () => {
  it("an abort rejects every promise still racing the signal, and only those", async () => {
    const controller = new AbortController();
    const settled = abortable(Promise.resolve("early"), controller.signal);
    const first = deferred<string>();
    const second = deferred<string>();
    const racingFirst = abortable(first.promise, controller.signal);
    const racingSecond = abortable(second.promise, controller.signal);
    await expect(settled).resolves.toBe("early");

    controller.abort(new Error("stop"));
    await expect(racingFirst).rejects.toThrow("stop");
    await expect(racingSecond).rejects.toThrow("stop");
    // The late answers are dropped, not surfaced.
    first.resolve("late");
    second.resolve("late");
  });

  it("a signal raced many times after its promises settled still aborts the next one", async () => {
    const controller = new AbortController();
    for (let index = 0; index < 1000; index++)
      await expect(abortable(Promise.resolve(index), controller.signal)).resolves.toBe(index);
    const hanging = deferred<number>();
    const racing = abortable(hanging.promise, controller.signal);
    controller.abort("enough");
    await expect(racing).rejects.toBe("enough");
  });

  it("an already aborted signal rejects at once, and the late rejection is handled", async () => {
    const controller = new AbortController();
    controller.abort("gone");
    await expect(abortable(Promise.reject(new Error("late")), controller.signal)).rejects.toBe("gone");
  });

  it("a signal nothing can abort passes the promise through", async () => {
    const pending = Promise.resolve(7);
    expect(abortable(pending, NEVER_ABORTED)).toBe(pending);
    expect(NEVER_ABORTED.aborted).toBe(false);
  });
});

describe("a run without a caller signal", () => {
  it.each(SURFACES)(
    "%s: tools and hooks still get a signal; the provider gets none to listen to",
    async (surface) => {
      const seen: { tool?: AbortSignal; hook?: AbortSignal } = {};
      const model = scriptedModel([{ toolCalls: [{ id: "c1", name: "probe" }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: {
          probe: tool({
            inputSchema: { type: "object" },
            execute: (_args, { signal }) => {
              seen.tool = signal;
              return "ok";
            },
          }),
        },
        hooks: [
          {
            name: "watch",
            on: "tool_call",
            kind: "inspect",
            handler: (_event, ctx) => {
              seen.hook = ctx.signal;
            },
          },
        ],
      });
      const { result } = await runOn(surface, agent, "go");
      expect(result.outcome).toBe("completed");
      expect(seen.tool).toBeInstanceOf(AbortSignal);
      expect(seen.tool?.aborted).toBe(false);
      expect(seen.hook).toBe(seen.tool);
      expect(model.calls.every((call) => call.abortSignal === undefined)).toBe(true);
    },
  );

  it.each(SURFACES)(
    "%s: with a caller signal, the provider and the tools get the run's signal, which follows it",
    async (surface) => {
      let toolSignal: AbortSignal | undefined;
      let listening = 0;
      const model = scriptedModel([{ toolCalls: [{ id: "c1", name: "probe" }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: {
          probe: tool({
            inputSchema: { type: "object" },
            execute: (_args, { signal }) => {
              toolSignal = signal;
              listening = getEventListeners(controller.signal, "abort").length;
              return "ok";
            },
          }),
        },
      });
      const controller = new AbortController();
      const { result } = await runOn(surface, agent, "go", { signal: controller.signal });
      expect(result.outcome).toBe("completed");
      expect(toolSignal).toBeInstanceOf(AbortSignal);
      expect(toolSignal?.aborted).toBe(false);
      expect(model.calls.every((call) => call.abortSignal === toolSignal)).toBe(true);
      // One listener on the caller's signal, however many runs follow it.
      expect(listening).toBe(1);
      await runOn(surface, agent, "again", { signal: controller.signal });
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    },
  );
});
