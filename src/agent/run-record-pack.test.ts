/**
 * Run records are stored packed (format 3: what a record says twice said once) and read
 * back whole; records stored before (format 2, packed less; format 1, whole) are read too.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { holeyLists } from "../../test/support/holey-lists.js";
import { createAgent, defineHook, flow, MemoryStore, scriptedModel, tool } from "../index.js";
import { decodeJson, encodeJson } from "../state/json-codec.js";
import type { RecordedAttempt, RecordedCall, RecordedStep, RunRecord } from "./run-record.js";
import { packRunRecord, unpackRunRecord } from "./run-record-pack.js";
import { loadRecordAt, loadRunRecord, loadRunRecords, recordedSessions } from "./run-recorder.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** What a store keeps of a value, and hands back. */
const stored = (value: unknown) => decodeJson(encodeJson(value)!);

const decision = (hook: string, event: "tool_call" | "model_request" | "run_end") => ({
  event,
  hook,
  kind: "decide" as const,
  effect: "continue",
});

/** Every field of a call, a step, an attempt and a record set: a packing that dropped one fails. */
const fullCall: Required<RecordedCall> = {
  toolCallId: "c1",
  toolName: "write",
  qualifiedName: "files.write",
  args: { path: "a.txt", bytes: new Uint8Array([1, 2, 3]) },
  ranArgs: { path: "b.txt", bytes: new Uint8Array([1, 2, 3]) },
  executed: true,
  result: { ok: true, at: new URL("https://example.com/a") },
  isError: false,
  pending: true,
  hooks: [decision("rewrite-path", "tool_call")],
};
const fullStep: Required<RecordedStep> = {
  index: 0,
  text: "writing",
  reasoning: "it asked for a file",
  finishReason: "tool-calls",
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadTokens: 2, cacheWriteTokens: 1 },
  calls: [fullCall],
  hooks: [decision("shape", "model_request")],
};
const fullAttempt: Required<RecordedAttempt> = {
  step: 0,
  attempt: 1,
  model: "primary:one",
  answer: {
    text: "writing",
    toolCalls: [{ id: "c1", name: "write", args: { path: "a.txt", bytes: new Uint8Array([1, 2, 3]) } }],
    finishReason: "tool-calls",
    usage: { inputTokens: 10, outputTokens: 5 },
  },
  error: { type: "rate_limit", message: "slow down", status: 429, retryable: true },
};
const fullRecord: Required<Omit<RunRecord, "format">> & { format: 1 } = {
  format: 1,
  runId: "r1",
  sessionId: "s1",
  agent: "writer",
  input: "write a file",
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_000_500,
  outcome: "completed",
  text: "done",
  reason: "because",
  hook: "gate",
  attempts: [
    { step: 0, attempt: 1, model: "primary:one", error: { type: "server", message: "503", retryable: true } },
    fullAttempt,
    {
      step: 1,
      attempt: 1,
      model: "fallback:two",
      answer: { text: "done", toolCalls: [], finishReason: "stop", usage: {} },
    },
  ],
  steps: [
    fullStep,
    {
      index: 1,
      // Not the answer's text: kept.
      text: "done, really",
      finishReason: "stop",
      usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      calls: [
        // A call the step's answer does not hold: its name and arguments are kept.
        {
          toolCallId: "x9",
          toolName: "ghost",
          qualifiedName: "ghost",
          args: { a: 1 },
          executed: false,
          hooks: [],
        },
        // Denied: never ran, its result is the denial, an error.
        {
          toolCallId: "c2",
          toolName: "rm",
          qualifiedName: "rm",
          args: {},
          executed: false,
          result: "not allowed",
          isError: true,
          hooks: [],
        },
      ],
      hooks: [],
    },
  ],
  hooks: [decision("audit", "run_end")],
  resumedAt: [1_700_000_000_200],
  harness: { name: "claude", event: "PreToolUse", payload: { tool: "Bash" }, decision: "allow" },
  gateway: { client: "inspector 2.12.0" },
};

describe("a packed run record", () => {
  it("reads back as the record that was packed, every field of it", () => {
    const packed = stored(packRunRecord(fullRecord as RunRecord));
    expect((packed as { format: number }).format).toBe(3);
    expect(unpackRunRecord(packed)).toEqual(stored(fullRecord));
  });

  it("says once what the record says twice: a call's name and arguments, ranArgs equal to them, the one model, empty lists", () => {
    // Plain arguments (bytes are never compared: kept apart, they stay as they are).
    const plain: RecordedAttempt = {
      ...fullAttempt,
      answer: { ...fullAttempt.answer, toolCalls: [{ id: "c1", name: "write", args: { path: "a.txt" } }] },
    };
    const record: RunRecord = {
      ...(fullRecord as RunRecord),
      attempts: [plain, { ...plain, step: 1, attempt: 1 }],
      steps: [
        {
          ...fullStep,
          calls: [
            {
              ...fullCall,
              qualifiedName: "write",
              args: { path: "a.txt" },
              ranArgs: { path: "a.txt" },
              hooks: [],
            },
          ],
          hooks: [],
        },
      ],
      hooks: [],
    };
    const packed = stored(packRunRecord(record)) as Record<string, unknown> & {
      attempts: Record<string, unknown>[];
      steps: { calls: Record<string, unknown>[] }[];
    };
    expect(packed.model).toBe("primary:one");
    expect(packed.attempts.every((attempt) => !("model" in attempt))).toBe(true);
    expect(packed.hooks).toBeUndefined();
    expect(packed.steps[0]).not.toHaveProperty("text");
    expect(packed.steps[0]).not.toHaveProperty("hooks");
    // The answer's own call at its place, executed: no id, no `executed`.
    expect(Object.keys(packed.steps[0]!.calls[0]!).sort()).toEqual(["pending", "result"]);
    expect(unpackRunRecord(packed)).toEqual(stored(record));
  });
});

/** An agent whose run retries, has a call denied and a result redacted: its record says a lot. */
function recordingAgent(store: MemoryStore, onRunRecord?: (record: RunRecord) => void) {
  return createAgent({
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
      read: tool({ inputSchema: z.object({ path: z.string() }), execute: () => "key=sk-1" }),
      remove: tool({ inputSchema: z.object({ path: z.string() }), execute: () => "removed" }),
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
            ? flow.rewriteResult(event.result.replace("sk-1", "[key]"))
            : undefined,
      }),
    ],
    retry: { initialDelayMs: 0, maxDelayMs: 0 },
    store,
    recordRuns: true,
    ...(onRunRecord ? { onRunRecord } : {}),
  });
}

describe("records in a store", () => {
  it("a run's record is stored packed and read back as the record the run built", async () => {
    const store = new MemoryStore();
    const built: RunRecord[] = [];
    const agent = recordingAgent(store, (record) => built.push(record));
    const result = await agent.run("tidy up", { sessionId: "s1" });
    const [key] = await store.keys("hookwise:runs:s1:");
    const raw = (await store.get(key!)) as { format: number };
    expect(raw.format).toBe(3);
    expect(encodeJson(raw)!.length).toBeLessThan(encodeJson(built[0])!.length);
    expect(await loadRunRecords(store, "s1")).toEqual([stored(built[0])]);
    expect(await loadRunRecord(store, "s1", result.runId)).toEqual(stored(built[0]));
    expect(await loadRecordAt(store, key!)).toEqual(stored(built[0]));
  });

  it("a record stored whole (format 1, before records were packed) is read as it is", async () => {
    const store = new MemoryStore();
    const old = { ...(fullRecord as RunRecord), sessionId: "old", harness: undefined };
    delete old.harness;
    const key = `hookwise:runs:old:${String(old.startedAt).padStart(15, "0")}:${old.runId}`;
    await store.set(key, old);
    expect(await loadRunRecords(store, "old")).toEqual([stored(old)]);
    expect(await loadRunRecord(store, "old", old.runId)).toEqual(stored(old));
    expect((await recordedSessions(store)).map((session) => session.sessionId)).toEqual(["old"]);
  });

  it("a packed record altered by hand is an error naming the key and the field", async () => {
    const store = new MemoryStore();
    await recordingAgent(store).run("tidy up", { sessionId: "s1" });
    const [key] = await store.keys("hookwise:runs:s1:");
    const raw = (await store.get(key!)) as { steps: { calls: unknown }[] };
    raw.steps[0]!.calls = "x";
    await store.set(key!, raw);
    await expect(loadRunRecords(store, "s1")).rejects.toThrow(
      /steps\[0\]\.calls: Invalid input: expected array, received string/,
    );
  });
});

describe("a run no hook fired in", () => {
  const script = () =>
    scriptedModel([
      {
        toolCalls: [
          { id: "c1", name: "read", args: { path: "a.txt" } },
          { id: "c2", name: "fail", args: {} },
        ],
      },
      { toolCalls: [{ id: "c3", name: "read", args: { path: "b.txt" } }] },
      { text: "done" },
    ]);
  const tools = {
    read: tool({
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }) => ({ text: `read ${path}`, bytes: new Uint8Array([1, 2]) }),
    }),
    fail: tool({
      inputSchema: z.object({}),
      execute: () => {
        throw new Error("broken");
      },
    }),
  };
  /** A record without what differs between two runs of the same script. */
  const comparable = (record: unknown) => ({
    ...(record as RunRecord),
    runId: "r",
    startedAt: 0,
    endedAt: 0,
  });

  it("is stored as the record the run builds, packed straight from its result and encoded once", async () => {
    const full = new MemoryStore();
    const built: RunRecord[] = [];
    // Asked for the record itself (`onRunRecord`): it is built, then packed.
    await createAgent({
      model: script(),
      tools,
      store: full,
      recordRuns: true,
      onRunRecord: (record) => built.push(record),
    }).run("go", { sessionId: "s" });
    const fast = new MemoryStore();
    const stringify = vi.spyOn(JSON, "stringify");
    await createAgent({ model: script(), tools, store: fast, recordRuns: true }).run("go", {
      sessionId: "s",
    });
    const encodings = stringify.mock.calls.filter(
      ([value]) => (value as { format?: unknown } | null)?.format === 3,
    );
    expect(encodings).toHaveLength(1);
    stringify.mockRestore();
    const [fastRecord] = await loadRunRecords(fast, "s");
    const [fullRecord] = await loadRunRecords(full, "s");
    expect(comparable(fastRecord)).toEqual(comparable(fullRecord));
    expect(comparable(fastRecord)).toEqual(comparable(stored(built[0])));
    // The tool's bytes are stored as bytes.
    expect(fastRecord!.steps[0]!.calls[0]!.result).toEqual({
      text: "read a.txt",
      bytes: new Uint8Array([1, 2]),
    });
    expect(fastRecord!.steps[0]!.calls[1]).toMatchObject({ toolCallId: "c2", executed: true, isError: true });
  });

  it("is encoded from lists without holes (JSON writes a list with holes the slow way), packed either way", async () => {
    const stringify = vi.spyOn(JSON, "stringify");
    // Packed straight from the result, and packed from the record built for `onRunRecord`.
    await createAgent({ model: script(), tools, store: new MemoryStore(), recordRuns: true }).run("go");
    await createAgent({
      model: script(),
      tools,
      store: new MemoryStore(),
      recordRuns: true,
      onRunRecord: () => {},
    }).run("go");
    const encoded = stringify.mock.calls
      .map(([value]) => value)
      .filter((value) => (value as { format?: unknown } | null)?.format === 3);
    stringify.mockRestore();
    expect(encoded).toHaveLength(2);
    for (const value of encoded) expect(holeyLists(value)).toEqual([]);
  });

  it("stores what its answers say once: no call ids at their place, no step index, usage or `executed: true`", async () => {
    const store = new MemoryStore();
    await createAgent({ model: script(), tools, store, recordRuns: true }).run("go", { sessionId: "s" });
    const [key] = await store.keys("hookwise:runs:s:");
    const raw = (await store.get(key!)) as {
      format: number;
      steps: Record<string, unknown>[] & { calls: Record<string, unknown>[] }[];
    };
    expect(raw.format).toBe(3);
    // Each answer as a list: step, attempt, text, finish reason, tokens, then each call's id, name, arguments.
    expect((raw as unknown as { attempts: unknown[] }).attempts[0]).toEqual([
      0,
      1,
      "",
      "tool-calls",
      expect.any(Number),
      expect.any(Number),
      "c1",
      "read",
      { path: "a.txt" },
      "c2",
      "fail",
      {},
    ]);
    for (const step of raw.steps) {
      expect(step).not.toHaveProperty("index");
      expect(step).not.toHaveProperty("usage");
      for (const call of step.calls as Record<string, unknown>[]) {
        expect(call).not.toHaveProperty("toolCallId");
        expect(call).not.toHaveProperty("executed");
      }
    }
  });
});

describe("a record stored packed in format 2 (before format 3)", () => {
  it("is read as the record it was packed from", async () => {
    const store = new MemoryStore();
    const record: RunRecord = {
      format: 1,
      runId: "r2",
      sessionId: "old2",
      agent: "a",
      input: "hi",
      startedAt: 1_700_000_000_000,
      endedAt: 1_700_000_000_100,
      outcome: "completed",
      text: "done",
      attempts: [
        {
          step: 0,
          attempt: 1,
          model: "m:1",
          answer: {
            text: "",
            toolCalls: [{ id: "c1", name: "read", args: { path: "a" } }],
            finishReason: "tool-calls",
            usage: { inputTokens: 3, outputTokens: 1 },
          },
        },
        {
          step: 1,
          attempt: 1,
          model: "m:1",
          answer: {
            text: "done",
            toolCalls: [],
            finishReason: "stop",
            usage: { inputTokens: 4, outputTokens: 2 },
          },
        },
      ],
      steps: [
        {
          index: 0,
          text: "",
          finishReason: "tool-calls",
          usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
          calls: [
            {
              toolCallId: "c1",
              toolName: "read",
              qualifiedName: "read",
              args: { path: "a" },
              ranArgs: { path: "a" },
              executed: true,
              result: "A",
              isError: false,
              hooks: [],
            },
          ],
          hooks: [],
        },
        {
          index: 1,
          text: "done",
          finishReason: "stop",
          usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
          calls: [],
          hooks: [],
        },
      ],
      hooks: [],
    };
    // As format 2 stored it: ids, indexes, usages and `executed` always there.
    const packed = {
      format: 2,
      runId: "r2",
      sessionId: "old2",
      agent: "a",
      input: "hi",
      startedAt: 1_700_000_000_000,
      endedAt: 1_700_000_000_100,
      outcome: "completed",
      text: "done",
      attempts: record.attempts.map(({ model: _model, ...rest }) => rest),
      steps: [
        {
          index: 0,
          usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
          calls: [{ toolCallId: "c1", executed: true, result: "A" }],
        },
        { index: 1, usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 }, calls: [] },
      ],
      model: "m:1",
    };
    await store.set(`hookwise:runs:old2:${String(record.startedAt).padStart(15, "0")}:r2`, packed);
    expect(await loadRunRecords(store, "old2")).toEqual([record]);
  });
});

describe("an answer stored as a list", () => {
  it("altered by hand, is an error naming the key and the field", async () => {
    const store = new MemoryStore();
    await createAgent({
      model: scriptedModel([{ text: "done" }]),
      store,
      recordRuns: true,
    }).run("go", { sessionId: "s" });
    const [key] = await store.keys("hookwise:runs:s:");
    const raw = (await store.get(key!)) as { attempts: unknown[][] };
    raw.attempts[0]![2] = 5;
    await store.set(key!, raw);
    await expect(loadRunRecords(store, "s")).rejects.toThrow(
      /attempts\[0\]\.answer\.text: Invalid input: expected string, received number/,
    );
  });
});
