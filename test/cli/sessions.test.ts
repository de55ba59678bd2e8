/**
 * No lost turns through the CLI: concurrent `hookwise run --session S` processes on one
 * store either all keep their turn or fail with a clear "session busy" (exit 1, one line)
 * — never exit 0 with a turn missing. On the CLI's default SQLite store and on Redis.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createStore, type StateConfig } from "../../src/state/create-store.js";
import { cli, cliProcess } from "../support/cli.js";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/sessions", import.meta.url));

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(): string {
  dir = mkdtempSync(join(tmpdir(), "hookwise-sessions-"));
  cpSync(FIXTURE, dir, { recursive: true });
  return join(dir, "hookwise.yaml");
}

/** Six `run --session shared` processes at once; what each said, and the transcript after. */
async function sixAtOnce(config: string, state: StateConfig, env: NodeJS.ProcessEnv = {}) {
  const prompts = Array.from({ length: 6 }, (_, index) => `turn ${index + 1}`);
  const outputs = await Promise.all(
    prompts.map((prompt) =>
      // Six Node processes starting at once on a small, busy machine take a while.
      cliProcess(["run", config, "--session", "shared", "--prompt", prompt, "--json"], {
        env,
        timeoutMs: 150_000,
      }),
    ),
  );
  const store = createStore(state, dir);
  const stored = await store.loadSession("shared");
  await store.close();
  const users = (stored?.messages ?? [])
    .filter((message) => message.role === "user")
    .map((message) => message.content as string);
  return { prompts, outputs, users, version: stored?.version ?? 0 };
}

function expectNoLostTurn({ prompts, outputs, users, version }: Awaited<ReturnType<typeof sixAtOnce>>) {
  prompts.forEach((prompt, index) => {
    const out = outputs[index]!;
    if (out.code === 0) {
      // Exit 0 means the turn is in the transcript, exactly once, with its answer.
      expect(users.filter((user) => user === prompt)).toHaveLength(1);
      expect(JSON.parse(out.stdout).outcome).toBe("completed");
    } else {
      expect(out.code, out.stderr).toBe(1);
      expect(out.stderr).toMatch(/^hookwise: session "shared" is busy: .+$/m);
      expect(out.stderr).not.toMatch(/\n\s+at /);
      expect(users).not.toContain(prompt);
    }
  });
  expect(users).toHaveLength(outputs.filter((out) => out.code === 0).length);
  expect(version).toBe(users.length);
}

describe("6 concurrent `hookwise run --session S`", () => {
  it("on the default SQLite store: every turn kept (or a clear busy exit), never a silent loss", async () => {
    const config = project();
    const result = await sixAtOnce(config, { kind: "sqlite", path: ".hookwise/state.db" });
    expectNoLostTurn(result);
    // Runs of a second, waiting up to 60 s (the fixture's session_wait): all six get their turn.
    expect(result.outputs.map((out) => out.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(result.users.sort()).toEqual(result.prompts);
  }, 180_000);

  it("a run that cannot get its session within session_wait exits 1 with one line saying so", async () => {
    const config = project();
    writeFileSync(config, readFileSync(config, "utf8").replace("session_wait: 60", "session_wait: 0.3"));
    const store = createStore({ kind: "sqlite", path: ".hookwise/state.db" }, dir);
    // A live process (this test) holds the session for longer than the run waits.
    const holder = JSON.stringify({ token: "t", pid: process.pid, host: "elsewhere.example", since: 0 });
    await store.lease("session:shared:lease", holder, 60_000);
    const out = await cliProcess(["run", config, "--session", "shared", "--prompt", "hi", "--json"]);
    await store.close();
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(
      /^hookwise: session "shared" is busy: a run in pid \d+ on elsewhere\.example has held it since 1970-01-01T00:00:00\.000Z; waited \d+ ms\. Run again when it is done, or let runs wait longer \(runtime\.session_wait/m,
    );
  }, 60_000);
});

/** A project in a temp dir (SQLite beside the config) whose scripted model asks to pay, once. */
function scriptedProject(script: string): string {
  dir = mkdtempSync(join(tmpdir(), "hookwise-script-position-"));
  writeFileSync(join(dir, "script.yaml"), script);
  writeFileSync(
    join(dir, "tools.mjs"),
    'export const pay = { description: "pay", inputSchema: { type: "object", properties: { amount: { type: "number" } } }, execute: ({ amount }) => "paid " + amount };\n',
  );
  writeFileSync(
    join(dir, "hookwise.yaml"),
    [
      "models: { default: scripted:./script.yaml }",
      "toolsets: { bank: { kind: module, path: ./tools.mjs } }",
      "runtime:",
      "  policies:",
      "    - { decision: ask_user, tool: bank.pay }",
      "agents: [{ id: main, tools: [bank.*] }]",
    ].join("\n"),
  );
  return join(dir, "hookwise.yaml");
}

describe("a scripted model keeps its place in the script per session", () => {
  it("`run --session S` twice, in two processes: the second run gets the script's second answer", async () => {
    const config = scriptedProject("- text: first answer\n- text: second answer\n");
    const first = await cliProcess(["run", config, "--session", "s1", "--prompt", "one", "--json"]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).text).toBe("first answer");
    const second = await cliProcess(["run", config, "--session", "s1", "--prompt", "two", "--json"]);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).text).toBe("second answer");
    // Another session starts at the script's first entry.
    const other = await cli(["run", config, "--session", "s2", "--prompt", "one", "--json"]);
    expect(JSON.parse(other.stdout).text).toBe("first answer");
    // The place is kept in the session's state, in the config's store.
    const store = createStore({ kind: "sqlite", path: ".hookwise/state.db" }, dir);
    expect(await store.get("session:s1:script:./script.yaml")).toBe(2);
    await store.close();
  }, 60_000);

  it("a sub-agent's scripted model keeps its place per session too: `run --session S` again gets its next answer", async () => {
    const config = scriptedProject(
      [
        "- tool_calls: [{ name: agents_clerk, args: { task: count } }]",
        "- text: the clerk is done",
        "- tool_calls: [{ name: agents_clerk, args: { task: count again } }]",
        "- text: the clerk is done again",
        "",
      ].join("\n"),
    );
    writeFileSync(join(dir, "clerk.yaml"), "- text: clerk first\n- text: clerk second\n");
    writeFileSync(
      config,
      [
        "models: { default: scripted:./script.yaml, clerk: scripted:./clerk.yaml }",
        "agents:",
        "  - { id: main, tools: [agents.clerk] }",
        "  - { id: clerk, role: specialist, model: clerk, tools: [] }",
      ].join("\n"),
    );
    const clerkSaid = async (prompt: string) => {
      // Each `run` loads the config afresh: the place can only come from the session's state.
      const out = await cli(["run", config, "--session", "s1", "--prompt", prompt, "--json"]);
      expect(out.code, out.stderr).toBe(0);
      const result = JSON.parse(out.stdout) as { steps: { toolResults: { result: unknown }[] }[] };
      return result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.result));
    };
    expect(await clerkSaid("count")).toEqual(["clerk first"]);
    expect(await clerkSaid("count again")).toEqual(["clerk second"]);
  }, 60_000);

  it("`resume` after an ask continues the script where the suspended run left it", async () => {
    const config = scriptedProject(
      "- tool_calls: [{ name: bank_pay, args: { amount: 5 } }]\n- text: paid five\n",
    );
    const asked = await cli(["run", config, "--session", "s1", "--prompt", "pay 5", "--json"]);
    expect(asked.code, asked.stderr).toBe(5);
    const { runId } = JSON.parse(asked.stdout);
    const resumed = await cli(["resume", config, "--run", runId, "--approve", "all", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout);
    // From the start, the model would have asked to pay again; it gave the next answer.
    expect(result).toMatchObject({ outcome: "completed", text: "paid five" });
    expect(result.steps.at(-1).toolCalls).toEqual([]);
  }, 60_000);
});

describe.skipIf(!redisAvailable)("6 concurrent `hookwise run --session S` on Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every turn kept, never a silent loss", async () => {
    const config = project();
    const result = await sixAtOnce(
      config,
      { kind: "redis", url: server.url },
      { HOOKWISE_STATE_URL: server.url },
    );
    expectNoLostTurn(result);
    expect(result.outputs.map((out) => out.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(result.users.sort()).toEqual(result.prompts);
  }, 180_000);
});
