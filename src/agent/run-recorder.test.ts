/**
 * Recording runs: each attempt's answer, each call with its decisions and result (after
 * redaction), kept in the store; marks never reach the caller's trace; nothing registered
 * when recording is off.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { manySmallObjects, promotedAfter, retainedBy } from "../../test/support/young-gc.js";
import {
  type AgentEvent,
  createAgent,
  defineHook,
  flow,
  MemoryStore,
  type RunResult,
  SqliteStore,
  scriptedModel,
  tool,
} from "../index.js";
import type { RunRecord } from "./run-record.js";
import { loadRunRecord, loadRunRecords, runRecorder } from "./run-recorder.js";

const SECRET = "sk-live-123456";

function fixture(recordRuns: boolean | undefined, store = new MemoryStore()) {
  const deleted: string[] = [];
  const agent = createAgent({
    model: scriptedModel([
      { error: { status: 503, message: "overloaded" } },
      {
        toolCalls: [
          { id: "c1", name: "read", args: { path: "a.txt" } },
          { id: "c2", name: "remove", args: { path: "a.txt" } },
        ],
      },
      { text: "done" },
    ]),
    tools: {
      read: tool({ inputSchema: z.object({ path: z.string() }), execute: () => `key=${SECRET}` }),
      remove: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => {
          deleted.push(path);
          return "removed";
        },
      }),
    },
    hooks: [
      defineHook({
        name: "no-remove",
        on: "tool_call",
        kind: "decide",
        match: "remove",
        handler: () => flow.deny("removing is not allowed"),
      }),
      defineHook({
        name: "redact",
        on: "tool_result",
        kind: "transform",
        handler: (event) =>
          typeof event.result === "string"
            ? flow.rewriteResult(event.result.replace(SECRET, "[key]"))
            : undefined,
      }),
    ],
    retry: { initialDelayMs: 0, maxDelayMs: 0 },
    store,
    ...(recordRuns === undefined ? {} : { recordRuns }),
  });
  return { agent, store, deleted };
}

describe.each(SURFACES)("recording runs (%s)", (surface) => {
  it("keeps every attempt, every call with its decisions, results after redaction", async () => {
    const { agent, store, deleted } = fixture(true);
    const { result, events } = await runOn(surface, agent, "tidy up", { sessionId: "s1" });
    expect(result.outcome).toBe("completed");
    expect(deleted).toEqual([]);
    // The caller's trace and stream are as without recording.
    expect(result.events.some((entry) => entry.hook.startsWith("hookwise:"))).toBe(false);
    const firings = events.flatMap((event) => (event.type === "hook" ? event.firings : []));
    expect(firings.some((entry) => entry.hook.startsWith("hookwise:"))).toBe(false);
    // A dispatch that fired only marks sends no event at all; the rest is the caller's trace.
    expect(events.every((event) => event.type !== "hook" || event.firings.length > 0)).toBe(true);
    if (surface === "stream") expect(firings).toEqual(result.events);

    const [record, ...more] = await loadRunRecords(store, "s1");
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      runId: result.runId,
      input: "tidy up",
      outcome: "completed",
      text: "done",
    });
    expect(
      record!.attempts.map((attempt) => [attempt.step, attempt.attempt, Boolean(attempt.error)]),
    ).toEqual([
      [0, 1, true],
      [0, 2, false],
      [1, 1, false],
    ]);
    const [read, remove] = record!.steps[0]!.calls;
    expect(read).toMatchObject({ toolCallId: "c1", executed: true, result: "key=[key]" });
    expect(remove).toMatchObject({ toolCallId: "c2", executed: false, args: { path: "a.txt" } });
    expect(remove!.hooks).toContainEqual(
      expect.objectContaining({ hook: "no-remove", effect: "deny", detail: "removing is not allowed" }),
    );
    expect(read!.hooks.map((entry) => entry.hook)).toEqual(["redact"]);
    expect(JSON.stringify(await loadRunRecords(store, "s1"))).not.toContain(SECRET);
  });

  it("keeps the model's answers without a model_response hook: a run with none builds no such event", async () => {
    const { agent, store } = fixture(true);
    expect(agent.runtime.registry.has("model_response")).toBe(false);
    const { result } = await runOn(surface, agent, "tidy up", { sessionId: "s1" });
    const [record] = await loadRunRecords(store, "s1");
    expect(record!.attempts.filter((attempt) => attempt.answer).map((attempt) => attempt.answer)).toEqual([
      {
        text: "",
        toolCalls: [
          { id: "c1", name: "read", args: { path: "a.txt" } },
          { id: "c2", name: "remove", args: { path: "a.txt" } },
        ],
        finishReason: "tool-calls",
        usage: expect.any(Object),
      },
      { text: "done", toolCalls: [], finishReason: "stop", usage: expect.any(Object) },
    ]);
    expect(record!.attempts.map((attempt) => attempt.model)).toEqual(
      result.requests.map((request) => request.model),
    );
  });
});

describe("where a record's steps and calls come from", () => {
  it("trace positions, not hooks: a recording agent adds no step_start or tool_call hook, and steps hold their calls", async () => {
    const { agent, store } = fixture(true);
    const own = agent.runtime.registry.list().filter((hook) => hook.name.startsWith("hookwise:record"));
    expect(own.map((hook) => hook.event)).toEqual(["model_error"]);
    const result = await agent.run("tidy up", { sessionId: "s1" });
    expect(result.events.some((entry) => entry.hook.startsWith("hookwise:record"))).toBe(false);
    const [record] = await loadRunRecords(store, "s1");
    expect(record!.steps.map((step) => step.calls.map((call) => call.toolCallId))).toEqual([
      ["c1", "c2"],
      [],
    ]);
  });

  it("on SQLite, in the session's commit: the record is there when the result is", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-recorder-"));
    const sqlite = new SqliteStore({ path: join(dir, "state.db") });
    try {
      const { agent } = fixture(true, sqlite as never);
      const result = await agent.run("tidy up", { sessionId: "s1" });
      const [record] = await loadRunRecords(sqlite, "s1");
      expect(record!.runId).toBe(result.runId);
      expect(record!.input).toBe("tidy up");
      expect(record!.steps.length).toBe(2);
    } finally {
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("when runs are recorded", () => {
  it("not by default on an in-memory store, nor when turned off", async () => {
    for (const recordRuns of [undefined, false]) {
      const { agent, store } = fixture(recordRuns);
      const result = await agent.run("tidy up", { sessionId: "s1" });
      expect(result.outcome).toBe("completed");
      expect(await loadRunRecords(store, "s1")).toEqual([]);
      expect(await store.keys("hookwise:runs:")).toEqual([]);
    }
  });

  it("by default on a store shared beyond the process", async () => {
    const store = Object.assign(new MemoryStore(), { sharing: "shared" as const });
    const { agent } = fixture(undefined, store);
    await agent.run("tidy up", { sessionId: "s2" });
    expect((await loadRunRecords(store, "s2")).length).toBe(1);
  });

  it("a session's records are its own: session a's list holds none of a:b's", async () => {
    const store = Object.assign(new MemoryStore(), { sharing: "shared" as const });
    const simple = (text: string) =>
      createAgent({ model: scriptedModel([{ text }]), store, recordRuns: true });
    const mine = await simple("for tenant1").run("mine", { sessionId: "tenant1" });
    const theirs = await simple("alice's secret answer").run("alice's question", {
      sessionId: "tenant1:alice",
    });
    const listed = await loadRunRecords(store, "tenant1");
    expect(listed.map((record) => record.runId)).toEqual([mine.runId]);
    expect(JSON.stringify(listed)).not.toContain("alice");
    expect(await loadRunRecord(store, "tenant1", theirs.runId)).toBeUndefined();
    expect((await loadRunRecords(store, "tenant1:alice")).map((record) => record.runId)).toEqual([
      theirs.runId,
    ]);
  });
});

/** An agent that asks before `deploy`, suspends, and answers "deployed" once approved. */
function askingAgent(store: MemoryStore, deployed: string[], answered = 0) {
  return createAgent({
    model: scriptedModel(
      [
        { toolCalls: [{ id: "d1", name: "deploy", args: { env: "prod" } }] },
        { text: "deployed to prod" },
      ].slice(answered),
    ),
    tools: {
      deploy: tool({
        inputSchema: z.object({ env: z.string() }),
        execute: ({ env }) => {
          deployed.push(env);
          return `deployed ${env}`;
        },
      }),
    },
    hooks: [
      defineHook({
        name: "ask-deploy",
        on: "tool_call",
        kind: "decide",
        match: "deploy",
        handler: () => flow.ask({ reason: "deploying needs a human" }),
      }),
      defineHook({ name: "audit", on: "tool_result", kind: "inspect", handler: () => undefined }),
    ],
    approvals: { suspend: true },
    store,
    recordRuns: true,
  });
}

describe.each(SURFACES)("a resumed run is recorded (%s)", (surface) => {
  for (const where of ["the same agent", "another agent on the store"] as const) {
    it(`its record is carried on past the approval: ${where}`, async () => {
      const store = new MemoryStore();
      const deployed: string[] = [];
      const agent = askingAgent(store, deployed);
      const { result: waiting } = await runOn(surface, agent, "ship it", { sessionId: "s1" });
      expect(waiting.outcome).toBe("suspended");
      const [suspendedRecord] = await loadRunRecords(store, "s1");
      expect(suspendedRecord).toMatchObject({
        outcome: "suspended",
        steps: [{ calls: [{ pending: true }] }],
      });

      const resumer = where === "the same agent" ? agent : askingAgent(store, deployed, 1);
      const decisions = [{ id: waiting.approvals![0]!.id, approved: true }];
      let result: RunResult;
      const streamed: AgentEvent[] = [];
      if (surface === "run") result = await resumer.resume(waiting.runId, decisions);
      else {
        const live = resumer.resumeStream(waiting.runId, decisions);
        for await (const event of live) streamed.push(event);
        result = await live.result;
      }
      expect(result.outcome).toBe("completed");
      expect(deployed).toEqual(["prod"]);
      // The marks stay out of the caller's trace and stream.
      expect(result.events.some((entry) => entry.hook.startsWith("hookwise:"))).toBe(false);
      const firings = streamed.flatMap((event) => (event.type === "hook" ? event.firings : []));
      expect(firings.some((entry) => entry.hook.startsWith("hookwise:"))).toBe(false);
      expect(streamed.every((event) => event.type !== "hook" || event.firings.length > 0)).toBe(true);

      // One record for the run: the suspended one, carried on and replaced.
      const records = await loadRunRecords(store, "s1");
      expect(records).toHaveLength(1);
      const [record] = records;
      expect(record).toMatchObject({
        runId: waiting.runId,
        outcome: "completed",
        text: "deployed to prod",
        startedAt: suspendedRecord!.startedAt,
      });
      expect(record!.resumedAt).toHaveLength(1);
      expect(record!.attempts.map((attempt) => attempt.step)).toEqual([0, 1]);
      expect(record!.steps.map((step) => step.index)).toEqual([0, 1]);
      const [call] = record!.steps[0]!.calls;
      expect(call).toMatchObject({
        toolCallId: "d1",
        executed: true,
        result: "deployed prod",
        ranArgs: { env: "prod" },
      });
      expect(call!.pending).toBeUndefined();
      // The ask made before the suspension and the hook that saw the result after it.
      expect(call!.hooks.map((entry) => `${entry.hook}:${entry.effect}`)).toEqual([
        "ask-deploy:ask",
        "audit:observed",
      ]);
    });
  }
});

describe.each(SURFACES)("a run resumed twice is one record (%s)", (surface) => {
  it("a partial decision keeps it suspended; the second resume completes it", async () => {
    const store = new MemoryStore();
    const deployed: string[] = [];
    const agent = createAgent({
      model: scriptedModel([
        {
          toolCalls: [
            { id: "d1", name: "deploy", args: { env: "staging" } },
            { id: "d2", name: "deploy", args: { env: "prod" } },
          ],
        },
        { text: "both deployed" },
      ]),
      tools: {
        deploy: tool({
          inputSchema: z.object({ env: z.string() }),
          execute: ({ env }) => {
            deployed.push(env);
            return `deployed ${env}`;
          },
        }),
      },
      hooks: [
        defineHook({
          name: "ask-deploy",
          on: "tool_call",
          kind: "decide",
          handler: () => flow.ask({ reason: "deploying needs a human" }),
        }),
      ],
      approvals: { suspend: true },
      store,
      recordRuns: true,
    });
    const resume = async (runId: string, decisions: { id: string; approved: boolean }[]) => {
      if (surface === "run") return agent.resume(runId, decisions);
      const live = agent.resumeStream(runId, decisions);
      for await (const _ of live);
      return live.result;
    };
    const { result: waiting } = await runOn(surface, agent, "ship both", { sessionId: "s1" });
    const [first, second] = waiting.approvals!;
    const half = await resume(waiting.runId, [{ id: first!.id, approved: true }]);
    expect(half.outcome).toBe("suspended");
    let [record] = await loadRunRecords(store, "s1");
    expect(record!.outcome).toBe("suspended");
    expect(record!.steps[0]!.calls.map((call) => call.pending ?? false)).toEqual([false, true]);

    const done = await resume(waiting.runId, [{ id: second!.id, approved: true }]);
    expect(done.outcome).toBe("completed");
    expect(deployed).toEqual(["staging", "prod"]);
    const records = await loadRunRecords(store, "s1");
    expect(records).toHaveLength(1);
    [record] = records;
    expect(record).toMatchObject({ outcome: "completed", text: "both deployed" });
    expect(record!.resumedAt).toHaveLength(2);
    expect(record!.steps.map((step) => step.index)).toEqual([0, 1]);
    expect(record!.steps[0]!.calls).toMatchObject([
      { toolCallId: "d1", executed: true, result: "deployed staging" },
      { toolCallId: "d2", executed: true, result: "deployed prod" },
    ]);
  });
});

describe.each(SURFACES)("a late inspection (%s)", (surface) => {
  it("of a tool's result that finishes once the next step began is placed at its call", async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const records: RunRecord[] = [];
    const agent = createAgent({
      model: scriptedModel([
        { toolCalls: [{ id: "c1", name: "read", args: { path: "a" } }] },
        { text: "ok" },
      ]),
      tools: { read: tool({ inputSchema: z.object({ path: z.string() }), execute: () => "text" }) },
      hooks: [
        defineHook({
          name: "slow-audit",
          on: "tool_result",
          kind: "inspect",
          handler: async () => {
            await gate;
          },
        }),
        defineHook({ name: "step-begins", on: "step_start", kind: "inspect", handler: () => undefined }),
        // The next step's request lets the inspection finish, then waits for it to be traced.
        defineHook({
          name: "open-gate",
          on: "model_request",
          kind: "transform",
          handler: async (_event, ctx) => {
            if (ctx.step === 1) {
              open();
              await new Promise((resolve) => setImmediate(resolve));
            }
            return undefined;
          },
        }),
      ],
      onRunRecord: (record) => records.push(record),
    });
    const { result } = await runOn(surface, agent, "read a", { sessionId: "s1" });
    // It did finish after the next step began.
    const order = result.events.map((entry) => entry.hook);
    expect(order.indexOf("slow-audit")).toBeGreaterThan(order.lastIndexOf("step-begins"));
    const [record] = records;
    expect(record!.steps[0]!.calls[0]!.hooks.map((entry) => entry.hook)).toEqual(["slow-audit"]);
    expect(record!.steps[1]!.hooks.map((entry) => entry.hook)).not.toContain("slow-audit");
  });
});

describe("what a finished record holds on to", () => {
  /** A finished run the recorder was told of: one step, its answer's call carrying `args`. */
  function finishedRun(recorder: ReturnType<typeof runRecorder>, runId: string, args: unknown) {
    recorder.onStepStart(runId, 0);
    recorder.onAnswer({
      runId,
      step: 0,
      attempt: 1,
      model: "test:model",
      turn: {
        text: "",
        reasoning: "",
        toolCalls: [{ toolCallId: "c1", toolName: "add", args, argsParsed: true } as never],
        finishReason: "tool-calls",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      },
    });
    const result = {
      outcome: "completed",
      text: "done",
      messages: [],
      steps: [],
      requests: [],
      events: [],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      runId,
      sessionId: "s",
    } as RunResult;
    const record = recorder.finish(result, { agent: "a", input: "go", startedAt: 1 });
    return { result, record };
  }

  it("nothing past its result: once the result is dropped, a young-generation collection frees the record", () => {
    const recorder = runRecorder({ store: new MemoryStore(), warn: () => {} });
    // The recorder's own lists exist before the measured run.
    finishedRun(recorder, "warm", {});
    const promoted = promotedAfter(() => finishedRun(recorder, "r1", manySmallObjects()));
    // The answer's arguments (about 40 KB) go with the record: held past the result, they would be promoted.
    expect(promoted).toBeLessThan(8_000);
  });

  it("nothing of a run that ended with no result, once it is forgotten", () => {
    const recorder = runRecorder({ store: new MemoryStore(), warn: () => {} });
    const begun = (runId: string) => {
      recorder.onStepStart(runId, 0);
      recorder.onAnswer({
        runId,
        step: 0,
        attempt: 1,
        model: "test:model",
        turn: {
          text: "",
          reasoning: "",
          toolCalls: [
            { toolCallId: "c1", toolName: "add", args: manySmallObjects(), argsParsed: true } as never,
          ],
          finishReason: "tool-calls",
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        },
      });
    };
    begun("warm");
    recorder.forget("warm");
    // Not forgotten, the answer's arguments (about 40 KB) stay with the recorder.
    const keptBy = (forget: boolean) =>
      retainedBy(() => {
        begun("r1");
        if (forget) recorder.forget("r1");
        return recorder;
      });
    expect(keptBy(false)).toBeGreaterThan(30_000);
    recorder.forget("r1");
    expect(keptBy(true)).toBeLessThan(8_000);
  });

  it("a recording agent whose commit fails forgets the run", async () => {
    class FailingStore extends MemoryStore {
      override saveSession(): never {
        throw new Error("disk full");
      }
    }
    const { agent } = fixture(true, new FailingStore() as never);
    const forgotten: string[] = [];
    const forget = agent.runtime.onRunFailed!;
    agent.runtime.onRunFailed = (runId) => {
      forgotten.push(runId);
      forget(runId);
    };
    await expect(agent.run("tidy up", { sessionId: "s1" })).rejects.toThrow("disk full");
    expect(forgotten).toHaveLength(1);
    // A run that ends with its result is not forgotten: its record takes what was kept.
    const { agent: fine } = fixture(true);
    fine.runtime.onRunFailed = (runId) => forgotten.push(runId);
    await fine.run("tidy up", { sessionId: "s1" });
    expect(forgotten).toHaveLength(1);
  });

  it("while a run goes on, each answer as one list: no copy of its calls, usage or answer first", () => {
    const recorder = runRecorder({ store: new MemoryStore(), warn: () => {} });
    const args = { a: 1 };
    const turn = {
      text: "",
      reasoning: "",
      toolCalls: [
        { toolCallId: "c1", toolName: "add", args, argsParsed: true },
        { toolCallId: "c2", toolName: "add", args, argsParsed: true },
      ] as never[],
      finishReason: "tool-calls",
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
    const answers = 1_000;
    const held = retainedBy(() => {
      for (let step = 0; step < answers; step++)
        recorder.onAnswer({ runId: "r1", step, attempt: 1, model: "test:model", turn });
      return recorder;
    });
    // As one list of 12 places, about 190 bytes an answer; copied into calls, usage and answer first, about 440.
    expect(held / answers).toBeLessThan(250);
  });

  it("answers of two models (a fallback) are stored and read back each with its model", async () => {
    const store = new MemoryStore();
    const recorder = runRecorder({ store, warn: () => {} });
    const turn = (text: string) => ({
      text,
      reasoning: "",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: undefined, totalTokens: 1 },
    });
    recorder.onStepStart("r1", 0);
    recorder.onAnswer({ runId: "r1", step: 0, attempt: 1, model: "a:first", turn: turn("one") });
    recorder.onAnswer({ runId: "r1", step: 0, attempt: 2, model: "b:fallback", turn: turn("two") });
    recorder.onAnswer({ runId: "r1", step: 0, attempt: 3, model: "a:first", turn: turn("three") });
    const result = {
      outcome: "completed",
      text: "three",
      messages: [],
      steps: [],
      requests: [],
      events: [],
      usage: { inputTokens: 1, outputTokens: 0, totalTokens: 1 },
      runId: "r1",
      sessionId: "s",
    } as RunResult;
    await recorder.save(recorder.finish(result, { agent: "a", input: "go", startedAt: 1 }));
    const [record] = await loadRunRecords(store, "s");
    expect(record!.attempts.map(({ model, answer }) => [model, answer?.text, answer?.usage])).toEqual([
      ["a:first", "one", { inputTokens: 1 }],
      ["b:fallback", "two", { inputTokens: 1 }],
      ["a:first", "three", { inputTokens: 1 }],
    ]);
  });

  it("the same record for the same result, and none of it in what the result shows", () => {
    const recorder = runRecorder({ store: new MemoryStore(), warn: () => {} });
    const { result, record } = finishedRun(recorder, "r1", { a: 1 });
    expect(recorder.finish(result, { agent: "a", input: "go", startedAt: 1 })).toBe(record);
    expect(Object.keys(result)).not.toContain("record");
    expect(JSON.parse(JSON.stringify(result))).toEqual(JSON.parse(JSON.stringify({ ...result })));
    expect(structuredClone(result)).toEqual({ ...result });
  });
});
