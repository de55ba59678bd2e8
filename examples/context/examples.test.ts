/**
 * Runs every example of examples/context (on `run()` and `stream()` where the example is
 * a config) and checks what docs/context.md says of it; also checks that each code block
 * of docs/context.md is taken verbatim from an example here, so the page only shows code
 * and config that the suite executes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LoadedConfig, loadConfig } from "../../src/config/load-config.js";
import { parseSyntheticCallId } from "../../src/config/manifests/synthetic-call-id.js";
import { estimateTokens } from "../../src/context/count-tokens.js";
import { unpairedToolCallIds } from "../../src/context/tool-pairing.js";
import {
  type Agent,
  defineHook,
  MemoryStore,
  type ModelMessage,
  type RunOptions,
  type RunResult,
  scriptedModel,
} from "../../src/index.js";
import { loadScript } from "../../src/models/load-script.js";
import { control as browser } from "./browser.mjs";
import { main as keepPinned } from "./keep-pinned.js";
import { main as liveState, model as liveStateModel } from "./live-state.js";
import { control as memory } from "./memory.mjs";
import { serve } from "./stateless-server.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const SURFACES = ["run", "stream"] as const;
type Surface = (typeof SURFACES)[number];

const opened: LoadedConfig[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((config) => config.close()));
});
beforeEach(() => {
  browser.version = 0;
  memory.calls = 0;
  memory.memories = ["prefers short answers", "lives in Lyon"];
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function load(file: string, options: { now?: () => number } = {}) {
  const config = await loadConfig(`${HERE}${file}`, { store: new MemoryStore(), logger: quiet, ...options });
  opened.push(config);
  return config;
}

async function drive(surface: Surface, agent: Agent, input: string, options: RunOptions = {}) {
  if (surface === "run") return agent.run(input, options);
  const live = agent.stream(input, options);
  for await (const _event of live) {
    // consumed
  }
  return live.result;
}

/**
 * The user texts (all parts) of each request, in order: the run's message, then what the
 * attempt added after the last message (where per-attempt context goes by default).
 */
function userParts(request: RunResult["requests"][number]): string[] {
  return request.messages
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      typeof message.content === "string"
        ? [message.content]
        : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])),
    );
}

describe("live-state.ts (a per-request context plugin)", () => {
  it("every attempt's outbound copy carries its own snapshot; the transcript none", async () => {
    const model = liveStateModel();
    const result = await liveState(model);
    expect(result.outcome).toBe("completed");
    expect(result.requests.map((request) => [request.step, request.attempt])).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
    ]);
    expect(result.requests.map(userParts)).toEqual([
      ["Where am I?", "Snapshot for request 1 (history len=1)"],
      ["Where am I?", "Snapshot for request 2 (history len=3)"],
      ["Where am I?", "Snapshot for request 3 (history len=3)"],
    ]);
    // What the provider received, attempt by attempt, is what `requests` records.
    expect(JSON.stringify(model.calls[2]!.prompt)).toContain("Snapshot for request 3");
    expect(JSON.stringify(model.calls[2]!.prompt)).not.toContain("Snapshot for request 2");
    expect(JSON.stringify(result.messages)).not.toContain("Snapshot");
    expect(result.messages[0]).toEqual({ role: "user", content: "Where am I?" });
  });
});

describe("keep-pinned.ts (flow.compact and a pre_compact veto)", () => {
  it("compacts all but the last exchange, except when a pinned message would go", async () => {
    const { results, store } = await keepPinned(["hello", "hi", "PINNED: my order id is 42", "ok", "thanks"]);
    const last = results.at(-1)!;
    expect(last.messages.map((message) => message.content)).toEqual([
      "[3 older messages archived]",
      "PINNED: my order id is 42",
      [{ type: "text", text: "answer 3" }],
      "ok",
      [{ type: "text", text: "answer 4" }],
      "thanks",
      [{ type: "text", text: "answer 5" }],
    ]);
    expect(last.events).toContainEqual({
      event: "pre_compact",
      hook: "keep-pinned",
      kind: "decide",
      effect: "deny",
      detail: "a pinned message would be removed",
    });
    const archived = (await store.loadSession("pinned"))!.archived!;
    expect(archived.map((message) => message.content)).toEqual([
      "hello",
      [{ type: "text", text: "answer 1" }],
      "[2 older messages archived]",
      "hi",
      [{ type: "text", text: "answer 2" }],
    ]);
  });
});

describe.each(SURFACES)("on %s()", (surface) => {
  describe("inject-action.yaml (the inject_tool_call action)", () => {
    it("once injects on the first run only; a static result is injected without calling a tool", async () => {
      const config = await load("inject-action.yaml");
      const model = scriptedModel(loadScript(`${HERE}inject-memories-script.yaml`));
      const agent = await config.createAgent(undefined, { model });
      const first = await drive(surface, agent, "Hello", { sessionId: "s" });
      expect(first.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(JSON.stringify(model.calls[0]!.prompt)).toContain("House rules: answer in one sentence.");
      expect(memory.calls).toBe(1); // the static one called nothing
      const second = await drive(surface, agent, "Again", { sessionId: "s" });
      expect(second.messages).toHaveLength(first.messages.length + 2); // the question and the answer only
      expect(memory.calls).toBe(1);
    });
  });

  describe("request-context.yaml (the same in config)", () => {
    it("the hook runs on every attempt, retries included; nothing reaches the transcript", async () => {
      const config = await load("request-context.yaml");
      const model = scriptedModel(loadScript(`${HERE}request-context-script.yaml`));
      const agent = await config.createAgent(undefined, { model, retry: { initialDelayMs: 0 } });
      const result = await drive(surface, agent, "How do hooks work?", { sessionId: "s" });
      expect(result.outcome).toBe("completed");
      const live = (version: number) =>
        `<context id="live-snapshot">\n[live] checkout page, version ${version}\n</context>`;
      expect(result.requests.map(userParts)).toEqual([
        ["How do hooks work?", "[request 0, attempt 1]", live(1)],
        ["How do hooks work?", "[request 1, attempt 1]", live(2)],
        ["How do hooks work?", "[request 1, attempt 2]", live(3)],
      ]);
      const retried = JSON.stringify(model.calls[2]!.prompt);
      expect(retried).toContain("[request 1, attempt 2]");
      expect(retried).toContain("version 3");
      expect(retried).not.toContain("[request 1, attempt 1]");
      expect(retried).not.toContain("version 2");
      for (const seen of [
        JSON.stringify(result.messages),
        JSON.stringify(await config.store.loadSession(result.sessionId)),
      ]) {
        expect(seen).not.toContain("[request");
        expect(seen).not.toContain("[live]");
      }
    });
  });

  describe("inject-memories.yaml (a manifest entry in config)", () => {
    it("the memories are injected once, refreshed only after an hour, and the model sees them", async () => {
      let now = Date.UTC(2026, 0, 1);
      const config = await load("inject-memories.yaml", { now: () => now });
      const model = scriptedModel(loadScript(`${HERE}inject-memories-script.yaml`));
      const agent = await config.createAgent(undefined, { model });
      const first = await drive(surface, agent, "Where do I live?", { sessionId: "s" });
      expect(first.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(JSON.stringify(model.calls[0]!.prompt)).toContain("lives in Lyon");
      now += 20 * 60_000;
      await drive(surface, agent, "Sure?", { sessionId: "s" });
      expect(memory.calls).toBe(1);
      now += 50 * 60_000;
      const third = await drive(surface, agent, "Really?", { sessionId: "s" });
      expect(memory.calls).toBe(2);
      const calls = third.messages.filter(
        (message) => message.role === "tool" && JSON.stringify(message).includes("get_memories"),
      );
      expect(calls).toHaveLength(1); // unchanged: refreshed in place, never duplicated
    });
  });

  describe("compaction.yaml", () => {
    it("researcher: truncation mid-run keeps every tool call paired and brings pressure under target", async () => {
      const config = await load("compaction.yaml");
      const model = scriptedModel(loadScript(`${HERE}compaction-script.yaml`));
      const pressures: number[] = [];
      const before: number[] = [];
      const agent = await config.createAgent("researcher", { model });
      agent.use(
        defineHook({
          name: "measure",
          on: "model_request",
          kind: "inspect",
          handler: (event, ctx) => {
            pressures.push(ctx.contextWindow!.pressure(event.history));
          },
        }),
      );
      agent.use(
        defineHook({
          name: "before-compaction",
          on: "pre_compact",
          kind: "inspect",
          handler: (event, ctx) => {
            before.push(event.tokens / ctx.contextWindow!.window);
          },
        }),
      );
      const result = await drive(surface, agent, "Tell me about hooks", { sessionId: "s" });
      expect(result.outcome).toBe("completed");
      expect(result.events).toContainEqual({
        event: "step_start",
        hook: "make-room",
        kind: "transform",
        effect: "editMessages",
      });
      expect(before.length).toBeGreaterThan(0);
      for (const pressure of before) expect(pressure).toBeGreaterThan(0.7);
      for (const request of result.requests) expect(unpairedToolCallIds(request.messages).size).toBe(0);
      // The request right after each compaction is under 40 % of the 2 000-token window.
      const after = result.requests.findIndex((request) =>
        request.messages.some((message) => message.role === "system"),
      );
      expect(after).toBeGreaterThan(0);
      expect(pressures[after]).toBeLessThan(0.4);
      // The note comes first (system text stays at the start), then the run's question, kept;
      // the removed messages are archived, the question is not.
      expect(result.messages[0]).toMatchObject({ role: "system", content: expect.stringMatching(/removed/) });
      expect(result.messages[1]).toEqual({ role: "user", content: "Tell me about hooks" });
      const session = (await config.store.loadSession("s"))!;
      expect(session.archived!.length).toBeGreaterThan(0);
      expect(unpairedToolCallIds([...session.archived!]).size).toBe(0);
      expect(session.archived!.some((message) => message.role === "user")).toBe(false);
    });

    it("chronicler: a summary by the summarizer model replaces the old turns at turn_end", async () => {
      const config = await load("compaction.yaml");
      const model = scriptedModel(loadScript(`${HERE}compaction-script.yaml`));
      const agent = await config.createAgent("chronicler", { model });
      const result = await drive(surface, agent, "Tell me about hooks", { sessionId: "s" });
      expect(result.outcome).toBe("completed");
      expect(result.messages[0]).toEqual({
        role: "system",
        content:
          "Summary of the earlier conversation (7 messages compacted):\n" +
          "The user asked about hooks; four documentation searches covered hooks, events, flows and policies.",
      });
      // The summary, then the 2 latest messages — 3, since the last tool call stays with its result.
      expect(result.messages.map((message) => message.role)).toEqual([
        "system",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(model.calls).toHaveLength(5); // the summary came from the other model
      const session = (await config.store.loadSession("s"))!;
      expect(session.archived).toHaveLength(7);
      expect(session.archived![0]).toEqual({ role: "user", content: "Tell me about hooks" });
    });
  });

  describe("stateless-server.ts", () => {
    it("the TTL travels in the history the client sends back", async () => {
      let now = Date.UTC(2026, 0, 1);
      const model = scriptedModel([{ text: "Lyon." }, { text: "Still Lyon." }, { text: "Lyon again." }]);
      let history: ModelMessage[] = await serve("Where do I live?", [], { now: () => now, model });
      history = JSON.parse(JSON.stringify(history));
      now += 30 * 60_000;
      history = await serve("And now?", history, { now: () => now, model });
      expect(memory.calls).toBe(1);
      now += 31 * 60_000;
      history = await serve("And now?", history, { now: () => now, model });
      expect(memory.calls).toBe(2);
      const ids = history.flatMap((message) =>
        message.role === "tool"
          ? message.content.map((part) => (part as { toolCallId: string }).toolCallId)
          : [],
      );
      expect(ids).toHaveLength(1);
      expect(parseSyntheticCallId(ids[0]!)?.expiresAt).toBe((now + 60 * 60_000) / 1000);
    });
  });
});

describe("docs/context.md", () => {
  const sources = readdirSync(HERE)
    .filter((name) => /\.(ts|ya?ml|mjs)$/.test(name) && !name.endsWith(".test.ts"))
    .map((name) => readFileSync(`${HERE}${name}`, "utf8"));
  const docs = readFileSync(fileURLToPath(new URL("../../docs/context.md", import.meta.url)), "utf8");
  const blocks = [...docs.matchAll(/```(ts|yaml)\n([\s\S]*?)```/g)].map((match) => match[2]!.trimEnd());

  it("has code examples", () => {
    expect(blocks.length).toBeGreaterThan(3);
  });

  /** Word for word, allowing the block to be dedented from where it sits (a hook in a list). */
  const quoted = (source: string, block: string) =>
    [0, 2, 4, 6].some((indent) =>
      source.includes(
        block
          .split("\n")
          .map((line) => (line ? " ".repeat(indent) + line : line))
          .join("\n"),
      ),
    );

  it.each(blocks.map((block, index) => [index, block] as const))(
    "block %i is taken verbatim from an executed example",
    (_index, block) => {
      expect(sources.some((source) => quoted(source, block))).toBe(true);
    },
  );

  it("the token estimate of a plain sentence is close to a real tokenizer's", () => {
    // o200k_base counts 11 (the message's text and its role's overhead); the estimator is within 2.
    const estimate = estimateTokens([{ role: "user", content: "Hooks observe, decide or transform." }]);
    expect(Math.abs(estimate - 11)).toBeLessThanOrEqual(2);
  });
});
