/**
 * Seed 000 (synthetic tool-call injection), end to end: each of the seed's four manifests
 * (000-*.json, verbatim) is loaded together with companion-000.yaml (its toolsets, an
 * agent) and driven through the loop with a scripted model, on `run()` and `stream()`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { recordingLogger } from "../../src/config/build/test-evaluation.js";
import { type LoadConfigOptions, type LoadedConfig, loadConfig } from "../../src/config/load-config.js";
import { parseSyntheticCallId } from "../../src/config/manifests/synthetic-call-id.js";
import { unpairedToolCallIds } from "../../src/context/tool-pairing.js";
import {
  type Agent,
  MemoryStore,
  type ModelMessage,
  type RunOptions,
  type RunResult,
  scriptedModel,
} from "../../src/index.js";
import { control as deployments } from "./companion-000-deployments.mjs";
import { control as memory } from "./companion-000-memory.mjs";
import { control as prefs } from "./companion-000-prefs.mjs";

const SEEDS = fileURLToPath(new URL(".", import.meta.url));
const SURFACES = ["run", "stream"] as const;
type Surface = (typeof SURFACES)[number];

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);

const temporary: string[] = [];
const loaded: LoadedConfig[] = [];

afterEach(async () => {
  await Promise.all(loaded.splice(0).map((config) => config.close()));
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  memory.calls = 0;
  deployments.calls = 0;
  prefs.calls = 0;
  prefs.preferences = { units: "metric", language: "en" };
  prefs.failWith = undefined;
});

/** The manifest merged into the companion config (relative paths made absolute), loaded. */
async function loadSeed(manifest: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const companion = parse(readFileSync(join(SEEDS, "companion-000.yaml"), "utf8"));
  const { hooks } = JSON.parse(readFileSync(join(SEEDS, manifest), "utf8"));
  for (const toolset of Object.values(companion.toolsets) as { path: string }[])
    toolset.path = resolve(SEEDS, toolset.path);
  companion.models.default = `scripted:${resolve(SEEDS, "companion-000-script.yaml")}`;
  const dir = mkdtempSync(join(tmpdir(), "hookwise-seed-000-"));
  temporary.push(dir);
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({ ...companion, hooks }, null, 2));
  const config = await loadConfig(file, options);
  loaded.push(config);
  return config;
}

async function drive(surface: Surface, agent: Agent, input: string, options: RunOptions = {}) {
  if (surface === "run") return agent.run(input, options);
  const live = agent.stream(input, options);
  for await (const _event of live) {
    // consumed to its end
  }
  return live.result;
}

const answers = (count: number) =>
  scriptedModel(Array.from({ length: count }, (_, index) => ({ text: `answer ${index + 1}` })));

/** The injected pairs of a transcript: [assistant tool call, tool result] by call id. */
function injectedPairs(messages: readonly ModelMessage[]) {
  const pairs: { index: number; toolName: string; callId: string; output: unknown; input: unknown }[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "assistant" || !Array.isArray(message.content)) return;
    const call = message.content[0] as { type: string; toolCallId: string; toolName: string; input: unknown };
    if (call?.type !== "tool-call" || !parseSyntheticCallId(call.toolCallId)) return;
    const result = (messages[index + 1]!.content as { output: unknown }[])[0]!;
    pairs.push({
      index,
      toolName: call.toolName,
      callId: call.toolCallId,
      output: result.output,
      input: call.input,
    });
  });
  return pairs;
}

function roles(result: RunResult): string[] {
  return result.messages.map((message) => message.role);
}

describe.each(SURFACES)("seed 000 on %s()", (surface) => {
  it("`always` (000-memory-always.json): one memory_server_get_memories pair per run, and the model receives it", async () => {
    const config = await loadSeed("000-memory-always.json");
    const model = answers(2);
    const agent = await config.createAgent(undefined, { model });

    const first = await drive(surface, agent, "What do you know about me?", { sessionId: "s1" });
    expect(first.outcome).toBe("completed");
    expect(roles(first)).toEqual(["user", "assistant", "tool", "assistant"]);
    const [pair] = injectedPairs(first.messages);
    expect(pair).toMatchObject({
      index: 1,
      toolName: "memory_server_get_memories",
      input: { user_id: "current" },
    });
    expect(pair!.output).toEqual({
      type: "json",
      value: {
        user_id: "current",
        memories: ["prefers short answers", "lives in Lyon", "allergic to peanuts"],
      },
    });
    // The model's first request carries the call and its result, after the user's message.
    const prompt = JSON.stringify(model.calls[0]!.prompt);
    expect(prompt).toContain('"toolName":"memory_server_get_memories"');
    expect(prompt).toContain("lives in Lyon");
    expect(model.calls[0]!.prompt.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
    ]);

    const second = await drive(surface, agent, "And now?", { sessionId: "s1" });
    expect(injectedPairs(second.messages)).toHaveLength(2);
    expect(memory.calls).toBe(2);
    expect(unpairedToolCallIds(second.messages).size).toBe(0);
    // The trace names the manifest hook.
    expect(second.events).toContainEqual({
      event: "run_start",
      hook: "hooks[0]:memory_server_get_memories",
      kind: "transform",
      effect: "inject",
    });
  });

  it("`append_if_changed` (000-preferences-append-if-changed.json): unchanged never duplicates, changed appends", async () => {
    const config = await loadSeed("000-preferences-append-if-changed.json");
    const agent = await config.createAgent(undefined, { model: answers(4) });
    for (const input of ["one", "two", "three"]) await drive(surface, agent, input, { sessionId: "s1" });
    const store = config.store;
    let messages = (await store.loadSession("s1"))!.messages;
    expect(injectedPairs(messages)).toHaveLength(1);
    expect(injectedPairs(messages)[0]!.toolName).toBe("user_prefs_api_get_preferences");
    expect(prefs.calls).toBe(3); // no TTL: the API is asked every time

    prefs.preferences = { units: "imperial", language: "en" };
    const fourth = await drive(surface, agent, "four", { sessionId: "s1" });
    messages = fourth.messages;
    const pairs = injectedPairs(messages);
    expect(pairs).toHaveLength(2);
    expect(pairs.map((pair) => (pair.output as { value: { units: string } }).value.units)).toEqual([
      "metric",
      "imperial",
    ]);
    // The changed result is appended at the end of the history, after this run's question.
    expect(messages[pairs[1]!.index - 1]).toEqual({ role: "user", content: "four" });
  });

  it("TTL (000-preferences-ttl.json): no call inside 60 minutes, a call after; unchanged → updated in place", async () => {
    let now = T0;
    const config = await loadSeed("000-preferences-ttl.json", { now: () => now });
    const model = answers(4);
    const agent = await config.createAgent(undefined, { model });

    const first = await drive(surface, agent, "one", { sessionId: "s1" });
    const [injected] = injectedPairs(first.messages);
    expect(parseSyntheticCallId(injected!.callId)).toMatchObject({ expiresAt: T0 / 1000 + 3600 });
    expect(prefs.calls).toBe(1);

    now = T0 + 30 * MINUTE;
    const second = await drive(surface, agent, "two", { sessionId: "s1" });
    expect(prefs.calls).toBe(1); // the fresh result is reused
    expect(injectedPairs(second.messages)).toEqual([injected]);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain(injected!.callId);

    now = T0 + 61 * MINUTE;
    const third = await drive(surface, agent, "three", { sessionId: "s1" });
    expect(prefs.calls).toBe(2); // expired: asked again
    const refreshed = injectedPairs(third.messages);
    expect(refreshed).toHaveLength(1); // same content: the pair is updated where it was
    expect(refreshed[0]!.index).toBe(injected!.index);
    expect(parseSyntheticCallId(refreshed[0]!.callId)).toMatchObject({
      expiresAt: T0 / 1000 + 61 * 60 + 3600,
    });

    now = T0 + 125 * MINUTE;
    prefs.preferences = { units: "imperial", language: "fr" };
    const fourth = await drive(surface, agent, "four", { sessionId: "s1" });
    expect(prefs.calls).toBe(3);
    expect(injectedPairs(fourth.messages)).toHaveLength(2);
  });

  it("TTL holds when the history comes back from a client (a stateless server)", async () => {
    let now = T0;
    const config = await loadSeed("000-preferences-ttl.json", { now: () => now });
    // Every request gets a fresh agent and an empty store: only the client keeps the history.
    const serve = async (input: string, history?: ModelMessage[]) => {
      const agent = await config.createAgent(undefined, { model: answers(1), store: new MemoryStore() });
      const result = await drive(surface, agent, input, history ? { messages: history } : {});
      // What the client stores and sends back: plain JSON.
      return JSON.parse(JSON.stringify(result.messages)) as ModelMessage[];
    };

    let history = await serve("one");
    expect(prefs.calls).toBe(1);
    now = T0 + 59 * MINUTE;
    history = await serve("two", history);
    expect(prefs.calls).toBe(1);
    expect(injectedPairs(history)).toHaveLength(1);
    now = T0 + 61 * MINUTE;
    history = await serve("three", history);
    expect(prefs.calls).toBe(2);
    expect(injectedPairs(history)).toHaveLength(1);
    expect(history.filter((message) => message.role === "user")).toHaveLength(3);
  });

  it("no toolset (000-unprefixed-tool.json): the tool name is used verbatim", async () => {
    const config = await loadSeed("000-unprefixed-tool.json");
    const model = answers(1);
    const agent = await config.createAgent(undefined, { model });
    const result = await drive(surface, agent, "status?");
    expect(injectedPairs(result.messages).map((pair) => pair.toolName)).toEqual(["My_Summarizer_tool"]);
    expect(deployments.calls).toBe(1);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("3 deployments today, all healthy.");
  });

  it("a failing tool: the injection is skipped and logged, the run completes", async () => {
    const logger = recordingLogger();
    const config = await loadSeed("000-preferences-append-if-changed.json", { logger });
    prefs.failWith = "preferences API is down";
    const model = answers(1);
    const agent = await config.createAgent(undefined, { model });
    const result = await drive(surface, agent, "hello");
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("answer 1");
    expect(roles(result)).toEqual(["user", "assistant"]);
    expect(model.calls[0]!.prompt.map((message) => message.role)).toEqual(["system", "user"]);
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "warn",
        message: expect.stringContaining("preferences API is down"),
      }),
    );
  });
});
