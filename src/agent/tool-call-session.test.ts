/**
 * Tool-call sessions (what `hookwise mcp` runs each call in): two processes' worth of
 * agents — two loaded configs on one SQLite file, as two gateway replicas — serve one
 * session at once: `max_fires` stays exact across them, and every call is in the
 * session's transcript and has its record, none lost to a concurrent commit. A redaction
 * hook's result is all that leaves the session: to the caller and to the store.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { redisAvailable, startRedis } from "../../test/support/redis-server.js";
import { type LoadedConfig, loadConfig } from "../config/load-config.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { scriptedModel } from "../models/scripted-model.js";
import type { StateConfig } from "../state/create-store.js";
import { MemoryStore } from "../state/memory-store.js";
import { createAgent } from "./create-agent.js";
import { loadRunRecords } from "./run-recorder.js";
import { openToolCallSession } from "./tool-call-session.js";

const CONFIG = `
models: { default: "scripted:./script.yaml" }
toolsets:
  t: { kind: module, path: ./tools.mjs }
agents:
  - id: gate
    policies:
      - { decision: deny, tool: t.count, when: 'has(args.n) && args.n < 0', reason: "no negative counts" }
    hooks:
      - id: stamp
        on: tool_call
        max_fires: 30
        action: { type: transform_params, transformation: { set: { stamped: true } } }
`;

const TOOLS = `export const count = {
  description: "Answers its arguments",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  execute: (args) => args,
};`;

let dir: string;
const loaded: LoadedConfig[] = [];

afterEach(async () => {
  await Promise.all(loaded.splice(0).map((config) => config.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function replica(
  state: StateConfig = { kind: "sqlite", path: join(dir, "state.db") },
): Promise<LoadedConfig> {
  const config = await loadConfig(join(dir, "gateway.yaml"), {
    defaultState: state,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  loaded.push(config);
  return config;
}

it("keeps max_fires exact, and every call recorded, across two replicas serving one session", async () => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-tool-session-"));
  writeFileSync(join(dir, "gateway.yaml"), CONFIG);
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(join(dir, "script.yaml"), "- text: unused\n");
  const [a, b] = [await replica(), await replica()];
  const model = scriptedModel([]);
  const sessions = [
    openToolCallSession((await a.createAgent("gate", { model })).runtime, { sessionId: "shared" }),
    openToolCallSession((await b.createAgent("gate", { model })).runtime, { sessionId: "shared" }),
  ];
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, n) => sessions[n % 2]!.call({ name: "t_count", args: { n } })),
  );
  expect(results.every((result) => result.executed && !result.isError)).toBe(true);
  expect(results.filter((result) => (result.result as { stamped?: boolean }).stamped === true)).toHaveLength(
    30,
  );
  const denied = await sessions[0]!.call({ name: "t.count", args: { n: -1 } });
  expect(denied).toMatchObject({ isError: true, executed: false });
  expect(String(denied.result)).toContain("no negative counts");
  await Promise.all(sessions.map((session) => session.close()));

  const session = await a.store.loadSession("shared");
  expect(session?.messages).toHaveLength(82);
  expect(session?.runs).toBe(41);
  const records = await loadRunRecords(a.store, "shared");
  expect(records).toHaveLength(41);
  const deniedRecord = records.find((record) => record.steps[0]!.calls[0]!.isError)!;
  expect(deniedRecord.steps[0]!.calls[0]).toMatchObject({ toolName: "t_count", executed: false });
  expect(deniedRecord.steps[0]!.calls[0]!.hooks).toContainEqual(
    expect.objectContaining({ hook: "policy", effect: "deny" }),
  );
}, 30_000);

it("redacts before anything leaves: the raw value is in neither the caller's result nor the store", async () => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-tool-session-"));
  const store = new MemoryStore();
  const agent = createAgent({
    name: "gate",
    model: scriptedModel([]),
    store,
    tools: {
      leak: {
        description: "Answers with a token",
        inputSchema: { type: "object", properties: {} },
        execute: () => "token=SECRET_abc123 ok",
      },
    },
    hooks: [
      defineHook({
        name: "redact",
        on: "tool_result",
        kind: "transform",
        handler: (event) => flow.rewriteResult(String(event.result).replace(/SECRET_\w+/g, "[redacted]")),
      }),
    ],
  });
  const session = openToolCallSession(agent.runtime, { sessionId: "redacted" });
  const result = await session.call({ name: "leak", args: {} });
  await session.close();
  expect(result).toMatchObject({ result: "token=[redacted] ok", isError: false, executed: true });
  const stored = JSON.stringify([
    await store.loadSession("redacted"),
    await loadRunRecords(store, "redacted"),
  ]);
  expect(stored).toContain("token=[redacted] ok");
  expect(stored).not.toContain("SECRET_abc123");
});

it("runs the config's Claude Code hooks on each call: a PreToolUse block stops the tool", async () => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-tool-session-"));
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(join(dir, "script.yaml"), "- text: unused\n");
  // A Claude Code hook script: exit 2 blocks the call, its stderr is the reason.
  writeFileSync(
    join(dir, "no-13.mjs"),
    `let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const event = JSON.parse(input);
  if (event.tool_input?.n === 13) {
    process.stderr.write("13 is unlucky");
    process.exit(2);
  }
});
`,
  );
  writeFileSync(
    join(dir, "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: [{ type: "command", command: `node ${join(dir, "no-13.mjs")}` }] },
        ],
      },
    }),
  );
  writeFileSync(
    join(dir, "gateway.yaml"),
    `models: { default: "scripted:./script.yaml" }\ntoolsets:\n  t: { kind: module, path: ./tools.mjs }\nclaude_hooks: ./settings.json\n`,
  );
  const config = await replica();
  const session = openToolCallSession((await config.createAgent()).runtime, { sessionId: "claude" });
  const blocked = await session.call({ name: "t_count", args: { n: 13 } });
  const allowed = await session.call({ name: "t_count", args: { n: 12 } });
  await session.close();
  expect(blocked).toMatchObject({ isError: true, executed: false });
  expect(String(blocked.result)).toContain("13 is unlucky");
  expect(allowed).toMatchObject({ isError: false, executed: true, result: { n: 12 } });
}, 30_000);

it.skipIf(!redisAvailable)(
  "keeps a global max_fires exact across two replicas on Redis, each serving its own sessions",
  async () => {
    const redis = await startRedis();
    try {
      dir = mkdtempSync(join(tmpdir(), "hookwise-tool-session-"));
      writeFileSync(
        join(dir, "gateway.yaml"),
        CONFIG.replace("max_fires: 30", "max_fires: 30\n        limit_scope: global"),
      );
      writeFileSync(join(dir, "tools.mjs"), TOOLS);
      writeFileSync(join(dir, "script.yaml"), "- text: unused\n");
      const state: StateConfig = { kind: "redis", url: redis.url };
      const [a, b] = [await replica(state), await replica(state)];
      const model = scriptedModel([]);
      const sessions = [
        openToolCallSession((await a.createAgent("gate", { model })).runtime, { sessionId: "on-a" }),
        openToolCallSession((await b.createAgent("gate", { model })).runtime, { sessionId: "on-b" }),
      ];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, n) => sessions[n % 2]!.call({ name: "t_count", args: { n } })),
      );
      expect(
        results.filter((result) => (result.result as { stamped?: boolean }).stamped === true),
      ).toHaveLength(30);
      await Promise.all(sessions.map((session) => session.close()));
      expect(await loadRunRecords(b.store, "on-a")).toHaveLength(25);
    } finally {
      await Promise.all(loaded.splice(0).map((config) => config.close()));
      await redis.stop();
    }
  },
  30_000,
);
