/**
 * Transcript edits (`flow.replaceMessages`, `flow.compact`), the `messages` run option,
 * `ctx.model` and `ctx.contextWindow` — on both surfaces.
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { recordingLogger, runOn, type SurfaceName, userTextSent } from "../../test/support/engine-harness.js";
import {
  createAgent,
  defineHook,
  flow,
  MemoryStore,
  type ModelMessage,
  scriptedModel,
  tool,
} from "../index.js";

const SURFACES: SurfaceName[] = ["run", "stream"];

const note = (text: string): ModelMessage => ({ role: "system", content: text });

/** A hook that injects a note on the first run and replaces it on later ones. */
function noteKeeper() {
  return defineHook({
    name: "note-keeper",
    on: "run_start",
    kind: "transform",
    handler: (event, ctx) => {
      const current = ctx.messages.find((message) => message.role === "system");
      const fresh = note(`note for "${event.input}"`);
      return current ? flow.replaceMessages(current, fresh) : flow.inject(fresh);
    },
  });
}

describe("flow.replaceMessages", () => {
  test.each(SURFACES)(
    "updates a message in place, persisted; the model sees the new one (%s)",
    async (surface) => {
      const store = new MemoryStore();
      const model = scriptedModel([{ text: "one" }, { text: "two" }]);
      const agent = createAgent({ model, store, hooks: [noteKeeper()] });
      await runOn(surface, { agent }, "first", { sessionId: "s" });
      const { result } = await runOn(surface, { agent }, "second", { sessionId: "s" });
      expect(result.messages).toEqual([
        { role: "user", content: "first" },
        note('note for "second"'), // where the first note was, not appended
        { role: "assistant", content: [{ type: "text", text: "one" }] },
        { role: "user", content: "second" },
        { role: "assistant", content: [{ type: "text", text: "two" }] },
      ]);
      expect((await store.loadSession("s"))!.messages).toEqual(result.messages);
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain('note for \\"second\\"');
      expect(JSON.stringify(model.calls[1]!.prompt)).not.toContain('note for \\"first\\"');
      expect(result.events).toContainEqual({
        event: "run_start",
        hook: "note-keeper",
        kind: "transform",
        effect: "editMessages",
      });
    },
  );

  test.each(SURFACES)(
    "a target that was never in the transcript fails closed, naming the hook (%s)",
    async (surface) => {
      const agent = createAgent({
        model: scriptedModel([{ text: "ok" }]),
        hooks: [
          defineHook({
            name: "stale",
            on: "run_start",
            kind: "transform",
            handler: () => flow.replaceMessages(note("never committed"), note("new")),
          }),
        ],
      });
      const { result } = await runOn(surface, { agent }, "hi");
      expect(result.outcome).toBe("error");
      expect(result.reason).toContain(
        'hook "stale" on run_start: replaceMessages names a message that is not in the transcript',
      );
      expect(JSON.stringify(result.messages)).not.toContain("new");
    },
  );

  test.each(SURFACES)(
    "a target an earlier edit of the same event removed: that edit is skipped and logged (%s)",
    async (surface) => {
      const logger = recordingLogger();
      const agent = createAgent({
        model: scriptedModel([{ text: "ok" }]),
        logger,
        hooks: ["first", "second"].map((name) =>
          defineHook({
            name,
            on: "step_start",
            kind: "transform",
            handler: (_event, context) => {
              const user = context.messages.find((message) => message.role === "user");
              return user ? flow.replaceMessages(user, note(`by ${name}`)) : undefined;
            },
          }),
        ),
      });
      const { result } = await runOn(surface, { agent }, "hi");
      expect(result.outcome).toBe("completed");
      expect(JSON.stringify(result.messages)).toContain("by first");
      expect(JSON.stringify(result.messages)).not.toContain("by second");
      expect(logger.warnings.join("\n")).toContain('hook "second": replaceMessages skipped');
    },
  );

  test.each(SURFACES)(
    "an edit that separates a tool call from its result fails closed (%s)",
    async (surface) => {
      const store = new MemoryStore();
      const lookup = tool({ inputSchema: z.object({}), execute: () => "42" });
      const agent = createAgent({
        model: scriptedModel([{ toolCalls: [{ name: "lookup" }] }, { text: "it is 42" }, { text: "never" }]),
        store,
        tools: { lookup },
        hooks: [
          defineHook({
            name: "breaker",
            on: "run_start",
            kind: "transform",
            handler: (_event, ctx) => {
              const result = ctx.messages.find((message) => message.role === "tool");
              if (result) return flow.replaceMessages(result, note("the result is gone"));
            },
          }),
        ],
      });
      await runOn(surface, { agent }, "first", { sessionId: "s" });
      const before = (await store.loadSession("s"))!.messages;
      const { result } = await runOn(surface, { agent }, "second", { sessionId: "s" });
      expect(result.outcome).toBe("error");
      expect(result.hook).toBe("breaker");
      expect(result.reason).toMatch(/tool call "call_1_0" lost its call or its result/);
      expect(result.messages).toEqual(before);
    },
  );
});

describe("flow.compact", () => {
  /** Three earlier runs, then a compaction of everything but the last two messages. */
  async function compacting(surface: SurfaceName, extra: Parameters<typeof defineHook>[0][] = []) {
    const store = new MemoryStore();
    const made: string[] = [];
    const model = scriptedModel([{ text: "a1" }, { text: "a2" }, { text: "a3" }, { text: "a4" }]);
    const compactor = defineHook({
      name: "compactor",
      on: "run_start",
      kind: "transform",
      handler: (event, ctx) => {
        if (event.input !== "fourth") return;
        return flow.compact({
          remove: ctx.messages.slice(0, -2),
          reason: "test",
          replacement: (removed) => {
            made.push(`summary of ${removed.length}`);
            return [note(`summary of ${removed.length} messages`)];
          },
        });
      },
    });
    const agent = createAgent({
      model,
      store,
      logger: recordingLogger(),
      hooks: [compactor, ...(extra as never[])],
    });
    for (const input of ["first", "second", "third"])
      await runOn(surface, { agent }, input, { sessionId: "s" });
    const outcome = await runOn(surface, { agent }, "fourth", { sessionId: "s" });
    return { ...outcome, store, made, model };
  }

  test.each(SURFACES)(
    "replaces the removed messages and archives them in the session (%s)",
    async (surface) => {
      const seen: unknown[] = [];
      const watcher = defineHook({
        name: "watch",
        on: "pre_compact",
        kind: "inspect",
        handler: (event) => {
          seen.push({ messages: event.messages.length, remove: event.remove.length, tokens: event.tokens });
        },
      });
      const { result, store, made, model } = await compacting(surface, [watcher]);
      expect(made).toEqual(["summary of 4"]);
      expect(result.messages).toEqual([
        note("summary of 4 messages"),
        { role: "user", content: "third" },
        { role: "assistant", content: [{ type: "text", text: "a3" }] },
        { role: "user", content: "fourth" },
        { role: "assistant", content: [{ type: "text", text: "a4" }] },
      ]);
      const session = (await store.loadSession("s"))!;
      expect(session.archived).toEqual([
        { role: "user", content: "first" },
        { role: "assistant", content: [{ type: "text", text: "a1" }] },
        { role: "user", content: "second" },
        { role: "assistant", content: [{ type: "text", text: "a2" }] },
      ]);
      expect(seen).toEqual([{ messages: 6, remove: 4, tokens: expect.any(Number) }]);
      expect(userTextSent(model.calls[3]!.prompt)).toEqual(["third", "fourth"]);
    },
  );

  test.each(SURFACES)(
    "a pre_compact decide hook vetoes it: nothing removed, no summary made (%s)",
    async (surface) => {
      const veto = defineHook({
        name: "veto",
        on: "pre_compact",
        kind: "decide",
        handler: () => flow.deny("keep everything"),
      });
      const { result, store, made } = await compacting(surface, [veto]);
      expect(made).toEqual([]);
      expect(result.messages).toHaveLength(8);
      expect((await store.loadSession("s"))!.archived).toBeUndefined();
      expect(result.events).toContainEqual({
        event: "pre_compact",
        hook: "veto",
        kind: "decide",
        effect: "deny",
        detail: "keep everything",
      });
    },
  );

  test.each(SURFACES)(
    "a pre_compact transform skips it; a throwing one cancels it (fail-closed) (%s)",
    async (surface) => {
      const skip = defineHook({
        name: "skip",
        on: "pre_compact",
        kind: "transform",
        handler: () => flow.skip(undefined),
      });
      const skipped = await compacting(surface, [skip]);
      expect(skipped.made).toEqual([]);
      expect(skipped.result.messages).toHaveLength(8);

      const broken = defineHook({
        name: "broken",
        on: "pre_compact",
        kind: "decide",
        handler: () => {
          throw new Error("cannot decide");
        },
      });
      const failed = await compacting(surface, [broken]);
      expect(failed.result.outcome).toBe("completed");
      expect(failed.made).toEqual([]);
      expect(failed.result.messages).toHaveLength(8);
    },
  );

  test.each(SURFACES)("a pre_compact terminate ends the run (%s)", async (surface) => {
    const stop = defineHook({
      name: "stop",
      on: "pre_compact",
      kind: "transform",
      handler: () => flow.terminate("context too large to go on"),
    });
    const { result, made } = await compacting(surface, [stop]);
    expect(result).toMatchObject({
      outcome: "terminated",
      hook: "stop",
      reason: "context too large to go on",
    });
    expect(made).toEqual([]);
  });

  test.each(SURFACES)(
    "mid-run, the run's question keeps its place for request patches (%s)",
    async (surface) => {
      const lookup = tool({ inputSchema: z.object({}), execute: () => "42" });
      const model = scriptedModel([{ text: "a1" }, { toolCalls: [{ name: "lookup" }] }, { text: "done" }]);
      const agent = createAgent({
        model,
        tools: { lookup },
        hooks: [
          defineHook({
            name: "compact-before-step-1",
            on: "step_start",
            kind: "transform",
            handler: (event, ctx) => {
              if (event.step !== 1) return;
              const question = ctx.messages.findLast((message) => message.role === "user")!;
              return flow.compact({
                remove: ctx.messages.filter((message) => message !== question).slice(0, 2),
                replacement: [note("earlier: a greeting")],
              });
            },
          }),
          defineHook({
            name: "stamp",
            on: "model_request",
            kind: "transform",
            handler: () => flow.patch({ appendToUserMessage: "[stamp]" }),
          }),
        ],
      });
      const store = agent.runtime.store;
      await runOn(surface, { agent }, "hello", { sessionId: "s" });
      const { result } = await runOn(surface, { agent }, "what is it?", { sessionId: "s" });
      expect(result.outcome).toBe("completed");
      expect(result.messages[0]).toEqual(note("earlier: a greeting"));
      // Step 1's request still extends the run's question, now at another index.
      expect(userTextSent(model.calls[2]!.prompt)).toEqual(["what is it?", "[stamp]"]);
      expect((await store.loadSession("s"))!.archived).toHaveLength(2);
    },
  );
});

test.each(SURFACES)(
  "a run given no sessionId whose compaction archived messages keeps its session on the in-memory store (%s)",
  async (surface) => {
    const lookup = tool({ inputSchema: z.object({}), execute: () => "42" });
    const model = scriptedModel([{ toolCalls: [{ name: "lookup" }] }, { text: "done" }]);
    const agent = createAgent({
      model,
      tools: { lookup },
      hooks: [
        defineHook({
          name: "compact-before-step-1",
          on: "step_start",
          kind: "transform",
          handler: (event, ctx) => {
            if (event.step !== 1) return;
            return flow.compact({
              remove: ctx.messages.filter((message) => message.role !== "user"),
              replacement: [note("earlier: the lookup said 42")],
            });
          },
        }),
      ],
    });
    const { result } = await runOn(surface, { agent }, "what is it?");
    expect(result.outcome).toBe("completed");
    // What compaction removed is in no result: the session keeps it.
    const kept = await agent.runtime.store.loadSession(result.sessionId);
    expect(kept!.archived).toHaveLength(2);
  },
);

describe("flow.compact: a message the replacement puts back", () => {
  test.each(SURFACES)("was moved, not removed: it is not archived (%s)", async (surface) => {
    const store = new MemoryStore();
    const agent = createAgent({
      model: scriptedModel([{ text: "a1" }, { text: "a2" }]),
      store,
      logger: recordingLogger(),
      hooks: [
        defineHook({
          name: "summary-first",
          on: "run_start",
          kind: "transform",
          handler: (_event, ctx) => {
            const [question, answer] = ctx.messages;
            if (!question || !answer) return;
            return flow.compact({
              remove: [question, answer],
              replacement: [note("earlier: one exchange"), question],
            });
          },
        }),
      ],
    });
    await runOn(surface, { agent }, "first", { sessionId: "s" });
    const { result } = await runOn(surface, { agent }, "second", { sessionId: "s" });
    expect(result.messages.slice(0, 2)).toEqual([
      note("earlier: one exchange"),
      { role: "user", content: "first" },
    ]);
    expect((await store.loadSession("s"))!.archived).toEqual([
      { role: "assistant", content: [{ type: "text", text: "a1" }] },
    ]);
  });
});

describe("the `messages` run option", () => {
  test.each(SURFACES)("continues a transcript held by the caller; no session_start (%s)", async (surface) => {
    const started: string[] = [];
    const model = scriptedModel([{ text: "again" }]);
    const agent = createAgent({
      model,
      hooks: [
        defineHook({
          name: "session",
          on: "session_start",
          kind: "inspect",
          handler: (event) => {
            started.push(event.sessionId);
          },
        }),
      ],
    });
    const history: ModelMessage[] = [
      { role: "user", content: "earlier" },
      { role: "assistant", content: [{ type: "text", text: "before" }] },
    ];
    const { result } = await runOn(surface, { agent }, "now", { messages: history });
    expect(started).toEqual([]);
    expect(result.messages.slice(0, 3)).toEqual([...history, { role: "user", content: "now" }]);
    expect(userTextSent(model.calls[0]!.prompt)).toEqual(["earlier", "now"]);
    expect(history).toHaveLength(2); // the caller's list is not mutated
  });
});

describe("ctx.model and ctx.contextWindow", () => {
  test.each(SURFACES)(
    "a hook calls the agent's model, or a named one; usage counts (%s)",
    async (surface) => {
      const main = scriptedModel([
        { text: "judged: fine", usage: { inputTokens: 7, outputTokens: 3 } },
        { text: "answer", usage: { inputTokens: 10, outputTokens: 2 } },
      ]);
      const other = scriptedModel([{ text: "second opinion", usage: { inputTokens: 5, outputTokens: 1 } }]);
      const verdicts: string[] = [];
      const agent = createAgent({
        model: main,
        models: { other },
        hooks: [
          defineHook({
            name: "judge",
            on: "run_start",
            kind: "transform",
            handler: async (event, ctx) => {
              const own = await ctx.model!.generate({ messages: [{ role: "user", content: event.input }] });
              const named = await ctx.model!.generate({
                messages: [{ role: "user", content: "?" }],
                model: "other",
              });
              verdicts.push(own.text, named.text);
            },
          }),
        ],
      });
      const { result } = await runOn(surface, { agent }, "is this fine?");
      expect(verdicts).toEqual(["judged: fine", "second opinion"]);
      expect(result.requests).toHaveLength(1); // a hook's call is not a step
      expect(result.usage).toEqual({ inputTokens: 22, outputTokens: 6, totalTokens: 28 });
      expect(other.calls).toHaveLength(1);
    },
  );

  test.each(SURFACES)(
    "tokens: the provider's count of what was sent, plus an estimate of what came after (%s)",
    async (surface) => {
      const lookup = tool({ inputSchema: z.object({}), execute: () => "forty-two" });
      const seen: { step: number; tokens: number; window: number }[] = [];
      const agent = createAgent({
        model: scriptedModel([
          { toolCalls: [{ name: "lookup" }], usage: { inputTokens: 1000, outputTokens: 5 } },
          { text: "done", usage: { inputTokens: 1100, outputTokens: 1 } },
        ]),
        tools: { lookup },
        contextWindow: 10_000,
        hooks: [
          defineHook({
            name: "measure",
            on: "step_end",
            kind: "inspect",
            handler: (event, ctx) => {
              seen.push({
                step: event.step,
                tokens: ctx.contextWindow!.tokens(),
                window: ctx.contextWindow!.window,
              });
            },
          }),
        ],
      });
      await runOn(surface, { agent }, "what is it?");
      // After step 0: 1000 reported + the assistant call and its result, estimated (a few tokens).
      expect(seen[0]!.tokens).toBeGreaterThan(1000);
      expect(seen[0]!.tokens).toBeLessThan(1040);
      expect(seen[1]!.tokens).toBeGreaterThan(1100);
      expect(seen[1]!.tokens).toBeLessThan(1120);
      expect(seen[0]!.window).toBe(10_000);
    },
  );
});
