/**
 * A state file the CLI cannot trust — not a database, cut short, a session or suspended run
 * that does not decode — is one line naming the file and what to do, exit 1, no stack.
 */
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import { redisAvailable, startRedis } from "../support/redis-server.js";

let dir: string;
let config: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-bad-state-"));
  config = join(dir, "hookwise.yaml");
  db = join(dir, ".hookwise", "state.db");
  writeFileSync(
    config,
    [
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  bank: { kind: module, path: ./tools.mjs }",
      "runtime:",
      "  policies:",
      "    - { decision: ask_user, tool: bank.pay }",
      "agents:",
      "  - id: main",
      "    tools: [bank.*]",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "script.yaml"),
    '- tool_calls: [{ name: bank_pay, args: { amount: 5 } }]\n- text: "paid"\n- text: "hello again"\n',
  );
  writeFileSync(
    join(dir, "tools.mjs"),
    'export const pay = { description: "pay", inputSchema: { type: "object", properties: { amount: { type: "number" } } }, execute: () => "ok" };\n',
  );
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Exit 1, one line on stderr that starts with `expected`, and no stack frame. */
function expectOneLine(out: { code: number; stderr: string }, expected: string) {
  expect(out.code, out.stderr).toBe(1);
  const lines = out.stderr.split("\n").filter((line) => line.startsWith("hookwise:"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(expected);
  expect(out.stderr).not.toMatch(/\n\s+at /);
  expect(out.stderr).not.toContain("internal error");
  return lines[0]!;
}

async function suspendedRun(): Promise<string> {
  const out = await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
  expect(out.code, out.stderr).toBe(5);
  return JSON.parse(out.stdout).runId as string;
}

describe("a state database the CLI cannot read", () => {
  it("garbage bytes in state.db", async () => {
    await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
    writeFileSync(db, Buffer.from("not a database, just a note someone saved here ".repeat(100)));
    const out = await cli(["run", config, "--session", "s1", "--prompt", "hi", "--json"]);
    const line = expectOneLine(out, `hookwise: The state database ${db} is not a readable SQLite database`);
    expect(line).toContain(`move it aside (mv ${db} ${db}.broken) to start from empty state`);
  });

  it("a truncated state.db", async () => {
    const runId = await suspendedRun();
    // A file cut short after its first pages (a copy interrupted, a full disk).
    const whole = `${db}.whole`;
    copyFileSync(db, whole);
    const sqlite = new Database(whole);
    sqlite.exec(`
      CREATE TABLE padding (x TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
      INSERT INTO padding SELECT hex(randomblob(2000)) FROM n;
    `);
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    sqlite.close();
    copyFileSync(whole, db);
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    truncateSync(db, 8192);
    const out = await cli(["resume", config, "--run", runId, "--approve", "all", "--json"]);
    expectOneLine(out, `hookwise: The state database ${db} is not a readable SQLite database`);
  });

  it("a stored session whose transcript does not decode", async () => {
    await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
    const sqlite = new Database(db);
    sqlite
      .prepare("UPDATE sessions SET messages = ? WHERE id = 's1'")
      .run('[{"role":"user","content":"pay i');
    sqlite.close();
    for (const args of [
      ["run", config, "--session", "s1", "--prompt", "hi", "--json"],
      ["history", config, "--session", "s1"],
    ]) {
      const line = expectOneLine(
        await cli(args),
        `hookwise: The stored session "s1" in ${db} is malformed (messages: not JSON: `,
      );
      expect(line).toContain(
        `continue with another session id, or delete this one: sqlite3 ${db} "DELETE FROM sessions WHERE id = 's1'"`,
      );
    }
  });

  it("a stored suspended run that is not JSON, or not a suspended run", async () => {
    const runId = await suspendedRun();
    const key = `run:${runId}:suspended`;
    const sqlite = new Database(db);
    sqlite.prepare("UPDATE kv SET value = ? WHERE key = ?").run('{"version":1,"status":"susp', key);
    const notJson = expectOneLine(
      await cli(["resume", config, "--run", runId, "--approve", "all"]),
      `hookwise: The stored key "${key}" in ${db} is malformed (not JSON: `,
    );
    expect(notJson).toContain(`delete it: sqlite3 ${db} "DELETE FROM kv WHERE key = '${key}'"`);

    sqlite.prepare("UPDATE kv SET value = ? WHERE key = ?").run(
      JSON.stringify({
        version: 1,
        status: "suspended",
        runId,
        sessionId: "s1",
        pending: { entries: "?" },
      }),
      key,
    );
    sqlite.close();
    const line = expectOneLine(
      await cli(["resume", config, "--run", runId, "--approve", "all", "--json"]),
      `hookwise: The stored suspended run "${runId}" in ${db} is malformed (agentName: `,
    );
    expect(line).toContain(
      `it cannot be resumed: delete its key "${key}" from that store (and "session:s1:suspended-run"`,
    );
  });
});

describe("a state database altered by hand", () => {
  for (const [what, change, detail] of [
    ["a dropped table", "DROP TABLE sessions", "no such table: sessions"],
    ["a dropped column", "ALTER TABLE sessions DROP COLUMN archived", "has no column named archived"],
    ["a renamed table", "ALTER TABLE kv RENAME TO kv_old", "no such table: kv"],
  ] as const) {
    it(`${what}: one line naming the file and what to do, for every command`, async () => {
      await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
      const sqlite = new Database(db);
      sqlite.exec(change);
      sqlite.close();
      for (const args of [
        ["run", config, "--session", "s1", "--prompt", "hi", "--json"],
        ["history", config, "--session", "s1"],
        ["trace", config, "--session", "s1"],
      ]) {
        const line = expectOneLine(
          await cli(args),
          `hookwise: The state database ${db} does not hold the tables hookwise writes (`,
        );
        expect(line).toContain(detail);
        expect(line).toContain(`move it aside (mv ${db} ${db}.broken) to start from empty state`);
      }
    });
  }

  it("a run record whose steps are not a list: trace and replay name the key, no stack", async () => {
    writeFileSync(join(dir, "script.yaml"), '- text: "hello"\n- text: "again"\n');
    expect((await cli(["run", config, "--session", "s1", "--prompt", "hi"])).code).toBe(0);
    const sqlite = new Database(db);
    const row = sqlite.prepare("SELECT key, value FROM kv WHERE key LIKE 'hookwise:runs:%'").get() as {
      key: string;
      value: string;
    };
    sqlite
      .prepare("UPDATE kv SET value = ? WHERE key = ?")
      .run(JSON.stringify({ ...JSON.parse(row.value), steps: "x" }), row.key);
    sqlite.close();
    for (const args of [
      ["trace", config, "--session", "s1"],
      ["trace", config, "--session", "s1", "--json"],
      ["replay", config, "--session", "s1"],
      ["history", config, "--session", "s1", "--jsonl"],
    ]) {
      const line = expectOneLine(await cli(args), `hookwise: The run record "${row.key}" in ${db}`);
      expect(line).toContain("steps: Invalid input: expected array, received string");
      expect(line).toContain("delete that key from the store");
    }
  });
});

describe("a session export whose run is not a run record", () => {
  it("replay --from and test: one line with the file, line and field (exit 2, as for any bad input file), no stack", async () => {
    writeFileSync(join(dir, "script.yaml"), '- text: "hello"\n');
    expect((await cli(["run", config, "--session", "s1", "--prompt", "hi"])).code).toBe(0);
    const exported = await cli(["history", config, "--session", "s1", "--jsonl"]);
    const lines = exported.stdout.trim().split("\n");
    const index = lines.findIndex((line) => line.startsWith('{"type":"run"'));
    const run = JSON.parse(lines[index]!);
    run.run.input = { text: "hi" };
    lines[index] = JSON.stringify(run);
    const file = join(dir, "session.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const replay = await cli(["replay", config, "--from", file]);
    expect(replay.code).toBe(2);
    expect(replay.stderr.trim()).toBe(
      `hookwise: ${file}:${index + 1}:1: a "run" line must hold a run record as hookwise history --jsonl writes it (input: Invalid input: expected string, received object)`,
    );
    writeFileSync(
      join(dir, "hookwise.test.yaml"),
      `tests:\n  - name: replayed\n    session: ./session.jsonl\n    expect: { outcome: completed }\n`,
    );
    const test = await cli(["test", config]);
    expect(test.code).toBe(2);
    expect(test.stderr.trim()).toBe(
      `hookwise: ${file}:${index + 1}:1: a "run" line must hold a run record as hookwise history --jsonl writes it (input: Invalid input: expected string, received object)`,
    );
  });
});

describe("a state server the CLI cannot reach", () => {
  it.skipIf(!redisAvailable)(
    "HOOKWISE_STATE_URL naming a database the server does not have, or not a number: refused",
    async () => {
      const server = await startRedis();
      const saved = process.env.HOOKWISE_STATE_URL;
      try {
        process.env.HOOKWISE_STATE_URL = `${server.url.replace(/\/\d*$/, "")}/99999`;
        const out = await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
        const line = expectOneLine(out, "hookwise: Redis at redis://127.0.0.1:");
        expect(line).toContain("has no database 99999 (ERR DB index is out of range)");
        expect(out.stdout).toBe("");
        // Nothing was written to database 0 instead.
        const { Redis } = await import("ioredis");
        const client = new Redis(server.url.replace(/\/\d*$/, "/0"));
        expect(await client.dbsize()).toBe(0);
        client.disconnect();
        process.env.HOOKWISE_STATE_URL = `${server.url.replace(/\/\d*$/, "")}/two`;
        expectOneLine(
          await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]),
          'the database after the host must be a whole number, as in redis://host:6379/0 (got "two")',
        );
      } finally {
        if (saved === undefined) delete process.env.HOOKWISE_STATE_URL;
        else process.env.HOOKWISE_STATE_URL = saved;
        await server.stop();
      }
    },
  );

  it("HOOKWISE_STATE_URL pointing at no server: one line naming it, exit 1, nothing run", async () => {
    const saved = process.env.HOOKWISE_STATE_URL;
    process.env.HOOKWISE_STATE_URL = "redis://someone:hunter2@127.0.0.1:1/0";
    try {
      const out = await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
      const line = expectOneLine(
        out,
        "hookwise: Cannot reach Redis at redis://127.0.0.1:1/0 (connect ECONNREFUSED",
      );
      expect(line).toContain("start it, or point HOOKWISE_STATE_URL / runtime.state.url at a running server");
      expect(out.stderr).not.toContain("hunter2");
      expect(out.stdout).toBe("");
    } finally {
      if (saved === undefined) delete process.env.HOOKWISE_STATE_URL;
      else process.env.HOOKWISE_STATE_URL = saved;
    }
  });
});

describe("a stored session that is not well-formed", () => {
  it("an orphan tool result in the transcript: refused on load with one line, for run and history", async () => {
    await cli(["run", config, "--session", "s1", "--prompt", "pay it", "--json"]);
    const sqlite = new Database(db);
    const orphan = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "ghost",
          toolName: "bank_pay",
          output: { type: "text", value: "ok" },
        },
      ],
    };
    sqlite
      .prepare("UPDATE sessions SET messages = ? WHERE id = 's1'")
      .run(JSON.stringify([{ role: "user", content: "hi" }, orphan]));
    sqlite.close();
    for (const args of [
      ["run", config, "--session", "s1", "--prompt", "hi", "--json"],
      ["history", config, "--session", "s1"],
    ]) {
      const line = expectOneLine(
        await cli(args),
        `hookwise: The stored session "s1" in ${db} is malformed (messages: tool call "ghost" has its call without its result, or its result without its call)`,
      );
      expect(line).toContain("continue with another session id, or delete this one");
    }
  });
});
