/**
 * A team's coding agents guarded by one config on one shared Redis: real `hookwise hook`
 * processes, one per tool call as the harnesses start them, against a real redis-server.
 * Limits hold exactly across processes; a Redis that is down, hangs, or refuses the
 * credentials blocks every call with one line naming it, within a bounded time, and the
 * process ends (a harness waits for the hook's process, not only its answer).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliProcess } from "../support/cli.js";
import { claudePre, hookProcess } from "../support/inbox-hook.js";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";
import { startServer } from "../support/server.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-harness-redis-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, state: string, hooks: string[] = []): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    [
      "harness: [claude, codex, gemini, cursor]",
      "runtime:",
      `  state: ${state}`,
      "  policies:",
      "    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm -rf\")', reason: no recursive deletes }",
      ...(hooks.length ? ["  hooks:", ...hooks.map((hook) => `    - ${hook}`)] : []),
      "",
    ].join("\n"),
  );
  return path;
}

/** Claude Code's answer to a PreToolUse: its decision and reason (nothing: left to Claude Code). */
function decisionOf(stdout: string): { decision?: string; reason?: string } {
  if (stdout.trim() === "") return {};
  const output = JSON.parse(stdout).hookSpecificOutput;
  return { decision: output.permissionDecision, reason: output.permissionDecisionReason };
}

/** Runs a `hook` process per session, all at once; how many times each hook's `log` fired. */
async function parallel(config: string, sessions: string[]): Promise<Record<string, number>> {
  const runs = sessions.map(
    (session, index) => hookProcess(config, claudePre(`ls ${index}`, session), 40).done,
  );
  const counts: Record<string, number> = {};
  for (const run of await Promise.all(runs)) {
    expect(run.code, run.stderr).toBe(0);
    for (const [, name] of run.stderr.matchAll(/^hookwise: FIRED (\S+)$/gm))
      counts[name!] = (counts[name!] ?? 0) + 1;
  }
  return counts;
}

describe.skipIf(!redisAvailable)("hookwise hook processes sharing one Redis", () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedis();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("10 processes at once: max_fires and rate_limit hold exactly, per session and globally", async () => {
    const config = writeConfig("limits.yaml", `{ kind: redis, url: "${server.url}", prefix: "limits:" }`, [
      "{ id: three, on: tool_call, max_fires: 3, action: { type: log, message: 'FIRED three' } }",
      "{ id: rate, on: tool_call, rate_limit: { max: 4, per_seconds: 600 }, action: { type: log, message: 'FIRED rate' } }",
      "{ id: team, on: tool_call, max_fires: 5, limit_scope: global, action: { type: log, message: 'FIRED team' } }",
    ]);
    const same = await parallel(
      config,
      Array.from({ length: 10 }, () => "one-session"),
    );
    expect(same).toEqual({ three: 3, rate: 4, team: 5 });
    // Ten other sessions: each has counts of its own; the global cap is spent.
    const other = await parallel(
      config,
      Array.from({ length: 10 }, (_, index) => `session-${index}`),
    );
    expect(other).toEqual({ three: 10, rate: 10 });
  }, 120_000);

  it("a session's evidence in Redis: history and trace in order, the sessions of its prefix, hookwise serve's list, replay through a changed config", async () => {
    const config = writeConfig(
      "evidence.yaml",
      `{ kind: redis, url: "${server.url}", prefix: "evidence:" }`,
      ["{ id: once, on: tool_call, max_fires: 1, action: { type: log, message: 'FIRED once' } }"],
    );
    for (const command of ["npm install left-pad", "rm -rf /", "npm test"]) {
      const run = await hookProcess(config, claudePre(command, "evidence-session"), 40).done;
      expect(run.code, run.stderr).toBe(0);
    }
    const history = await cli(["history", config, "--session", "evidence-session"]);
    expect(history.code, history.stderr).toBe(0);
    const lines = history.stdout.split("\n").filter((line) => line.includes("PreToolUse Bash"));
    expect(lines.map((line) => line.replace(/^.*PreToolUse Bash /, ""))).toEqual([
      '{"command":"npm install left-pad","description":"deploy it"} → no decision',
      '{"command":"rm -rf /","description":"deploy it"} → deny: no recursive deletes',
      '{"command":"npm test","description":"deploy it"} → no decision',
    ]);
    const trace = await cli(["trace", config, "--session", "evidence-session"]);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout.indexOf("npm install left-pad")).toBeLessThan(trace.stdout.indexOf("rm -rf /"));
    expect(trace.stdout.indexOf("rm -rf /")).toBeLessThan(trace.stdout.indexOf("npm test"));
    expect(trace.stdout).toContain("hook once (tool_call, inspect) → observed");
    // Without a session: the sessions recorded under this prefix, and no other.
    const sessions = await cli(["trace", config]);
    expect(sessions.stderr).toContain("evidence-session");
    expect(sessions.stderr).not.toContain("one-session");
    // A hookwise serve of the same config on the same Redis lists the session and its events.
    const served = await startServer({ replaceConfig: readFileSync(config, "utf8") });
    try {
      const { sessions: listed } = (await (await served.fetch("/hooks/sessions")).json()) as {
        sessions: { id: string; events: number }[];
      };
      expect(listed.find((session) => session.id === "evidence-session")?.events).toBe(3);
      const { events } = (await (await served.fetch("/hooks/sessions/evidence-session")).json()) as {
        events: { decision: string }[];
      };
      expect(events.map((event) => event.decision)).toEqual(["none", "deny", "none"]);
    } finally {
      await served.close();
    }
    // A changed config: installs denied, deletes left to Claude Code.
    const changed = writeConfig("changed.yaml", `{ kind: redis, url: "${server.url}", prefix: "evidence:" }`);
    writeFileSync(
      changed,
      `harness: claude\nruntime:\n  state: { kind: redis, url: "${server.url}", prefix: "evidence:" }\n  policies:\n    - { decision: deny, tool: shell, when: 'args.command.startsWith("npm install")', reason: no installs }\n`,
    );
    const replay = await cli(["replay", changed, "--session", "evidence-session"]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(
      `shell {"command":"npm install left-pad","description":"deploy it"}: not decided: left to Claude Code's own rules → denied by policy: "no installs"`,
    );
    expect(replay.stdout).toContain(
      `shell {"command":"rm -rf /","description":"deploy it"}: denied by policy: "no recursive deletes" → not decided: left to Claude Code's own rules`,
    );
    expect(replay.stdout).toContain("4 difference(s)");
    // The replay kept its counts to itself: the recorded session's count is still the one fire.
    const raw = new Redis(server.url);
    try {
      expect(await raw.get("evidence:kv:hook:app:once:fires:session:evidence-session")).toBe("1");
      expect(await raw.keys("evidence:kv:hookwise:runs:evidence-session:*")).toHaveLength(3);
    } finally {
      raw.disconnect();
    }
  }, 90_000);

  it("a Redis that stops answering: each call is blocked within seconds, naming it, and its process ends", async () => {
    const config = writeConfig("frozen.yaml", `{ kind: redis, url: "${server.url}", prefix: "frozen:" }`);
    server.freeze();
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await hookProcess(config, claudePre("ls", "frozen-session"), 45).done;
      const took = Date.now() - started;
      expect(code, stderr).toBe(0);
      expect(decisionOf(stdout)).toEqual({
        decision: "deny",
        reason: `hookwise: Cannot reach Redis at ${server.url}: it accepted the connection but did not answer within 5 s; check that it is running and not overloaded (a server that takes only TLS wants a rediss:// URL) (blocked)`,
      });
      expect(stderr).not.toMatch(/\n\s+at /);
      // Well before the hook's own 45 s deadline, and the process did not stay behind.
      expect(took).toBeLessThan(15_000);
    } finally {
      server.thaw();
    }
  }, 60_000);
});

describe.skipIf(!redisAvailable)("hookwise hook on a Redis it cannot use", () => {
  let guarded: RedisServer;

  beforeAll(async () => {
    guarded = await startRedis({ password: "team-secret-123" });
  });

  afterAll(async () => {
    await guarded?.stop();
  });

  it("a wrong or missing password: blocked with one line saying so", async () => {
    const config = writeConfig("guarded.yaml", "{ kind: redis }");
    const where = `Redis at redis://127.0.0.1:${guarded.port}`;
    for (const [url, expected] of [
      [
        guarded.url,
        `hookwise: ${where} requires a password, and none was given: put it in HOOKWISE_STATE_URL (redis://:password@host:port/db, or redis://user:password@…) (blocked)`,
      ],
      [
        `redis://:wrong-password@127.0.0.1:${guarded.port}`,
        `hookwise: ${where} refused the user and password (WRONGPASS invalid username-password pair or user is disabled.): give the right ones in HOOKWISE_STATE_URL (redis://user:password@host:port/db) (blocked)`,
      ],
    ] as const) {
      // The password goes in the environment only.
      const run = hookProcess(config, claudePre("ls", "s"), 20, "claude", { HOOKWISE_STATE_URL: url });
      const { code, stdout, stderr } = await run.done;
      expect(code, stderr).toBe(0);
      expect(decisionOf(stdout)).toEqual({ decision: "deny", reason: expected });
    }
  }, 60_000);

  it("secrets in a tool call are masked in Redis itself (records, the inbox), and the call runs as it was", async () => {
    const config = join(dir, "secrets.yaml");
    writeFileSync(
      config,
      [
        "harness: claude",
        "toolsets:",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's ${VAR} syntax
        '  gh: { kind: mcp, command: github-mcp-server, env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GH_PAT}" } }',
        "runtime:",
        '  state: { kind: redis, prefix: "masked:" }',
        "  approvals: inbox",
        "  approval_wait: 1",
        "  policies:",
        "    - { decision: ask_user, tool: Bash, when: 'args.command.contains(\"deploy\")', reason: deploys need a human }",
        "  hooks:",
        "    - id: describe",
        "      on: tool_call",
        "      action: { type: transform_params, transformation: { set: { description: checked } } }",
        "",
      ].join("\n"),
    );
    const secrets = {
      DEPLOY_API_KEY: "sk-live-0123456789abcdef",
      GH_PAT: "ghp_0123456789abcdefghij",
      password: "team-secret-123",
    };
    const env = {
      HOOKWISE_STATE_URL: `redis://:${secrets.password}@127.0.0.1:${guarded.port}`,
      DEPLOY_API_KEY: secrets.DEPLOY_API_KEY,
      GH_PAT: secrets.GH_PAT,
    };
    const command = `curl -H "Bearer ${secrets.DEPLOY_API_KEY}" https://api && gh auth login --with-token ${secrets.GH_PAT} && redis-cli -a ${secrets.password} KEYS '*'`;
    const run = await hookProcess(config, claudePre(command, "leaky"), 20, "claude", env).done;
    expect(run.code, run.stderr).toBe(0);
    // The rewritten call Claude Code runs is the agent's command as it was, keys and all.
    expect(JSON.parse(run.stdout).hookSpecificOutput.updatedInput).toEqual({
      command,
      description: "checked",
    });
    // Asked in the inbox: no one decides within the second, so it is denied.
    const asked = await hookProcess(config, claudePre(`${command} && deploy`, "leaky"), 20, "claude", env)
      .done;
    expect(decisionOf(asked.stdout).decision).toBe("deny");
    const raw = new Redis({ port: guarded.port, host: "127.0.0.1", password: secrets.password });
    try {
      const keys = await raw.keys("masked:*");
      const stored = (await Promise.all(keys.map((key) => raw.get(key)))).join("\n");
      expect(keys.filter((key) => key.startsWith("masked:kv:hookwise:runs:leaky:"))).toHaveLength(2);
      expect(keys.some((key) => key.startsWith("masked:kv:approval-wait:"))).toBe(true);
      expect(stored).toContain(
        'curl -H \\"Bearer [redacted DEPLOY_API_KEY]\\" https://api && gh auth login --with-token [redacted GH_PAT] && redis-cli -a [redacted Redis password]',
      );
      for (const value of Object.values(secrets)) expect(stored).not.toContain(value);
    } finally {
      raw.disconnect();
    }
    const history = await cliProcess(["history", config, "--session", "leaky"], { env });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toContain("[redacted DEPLOY_API_KEY]");
    for (const value of Object.values(secrets)) expect(history.stdout).not.toContain(value);
  }, 60_000);

  it("a Redis that is not running: blocked, naming it", async () => {
    const config = writeConfig("down.yaml", '{ kind: redis, url: "redis://127.0.0.1:1/0" }');
    const { code, stdout } = await hookProcess(config, claudePre("ls", "s"), 20).done;
    expect(code).toBe(0);
    expect(decisionOf(stdout).reason).toMatch(
      /^hookwise: Cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/0 \(connect ECONNREFUSED[^)]*\): start it/,
    );
  }, 30_000);
});
