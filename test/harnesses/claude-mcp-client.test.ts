/**
 * The real Claude Code as the MCP client of `hookwise mcp` in front of the real
 * `@modelcontextprotocol/server-filesystem`, with examples/mcp-gateway's policies (writes only
 * inside notes/) plus one that denies `fs.move_file` outright. The fake Anthropic API has the
 * model call the gateway's write tool twice — once with a path the policy denies, once with one
 * it allows. The denied call leaves no file (the real server would have written it: only the
 * gateway refused) and the model reads the policy's reason; the allowed one is written by the
 * real server, stamped by the example's hook.
 *
 * Claude Code gets the gateway two ways, as docs/mcp.md says: `--mcp-config FILE`, and a
 * project's `.mcp.json` — which Claude Code runs only once approved: `enabledMcpjsonServers`
 * in `.claude/settings.local.json` of a folder the user trusts, or `enableAllProjectMcpServers`
 * in the user's `~/.claude/settings.json`. `claude mcp list` shows the approval (it starts the
 * approved gateway and says it connected); `claude -p` then lists, calls and is refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import type { FakeModelServer } from "../support/harnesses/fake-model-server.js";
import { harnesses } from "../support/harnesses/install.js";
import { filesystemServer, realFilesystemGateway } from "../support/harnesses/mcp-servers.js";
import { claudeEnv, runClaude } from "../support/harnesses/run-claude.js";
import { type HarnessResult, killAllHarnesses, spawnHarness } from "../support/harnesses/run-harness.js";

const DENY_REASON = 'tool "fs.write_file" was denied by hook "policy": writes are allowed only inside notes/';
const STAMPED = "Ship on Friday.\n(written through hookwise)";

/** The example's config with the real server, and a policy that denies a tool outright (so it is not listed). */
function gatewayProject(cwd: string): void {
  realFilesystemGateway(cwd, (yaml) =>
    yaml.replace(
      "    policies:\n",
      "    policies:\n      - decision: deny\n        tool: fs.move_file\n        reason: files stay where they are\n",
    ),
  );
}

/** The model's script: a write the gateway refuses, one it allows, then an answer. */
function writes(server: string) {
  return [
    { tool: `mcp__${server}__fs_write_file`, input: { path: "plan.md", content: "Ship on Friday." } },
    { tool: `mcp__${server}__fs_write_file`, input: { path: "notes/plan.md", content: "Ship on Friday." } },
    { text: "Done." },
  ];
}

interface Session {
  cwd: string;
  fake: FakeModelServer;
  result: HarnessResult;
  context: string;
}

function describeSession(session: () => Session, server: string): void {
  it("the session ends normally, after both calls", () => {
    const { result, fake, context } = session();
    expect(result.timedOut, context).toBe(false);
    expect(result.exitCode, context).toBe(0);
    expect(fake.turnRequests().length, context).toBe(3);
  });

  it("Claude Code listed the gateway's tools under its mcp__ names, not the one a policy denies outright", () => {
    const { fake, context } = session();
    // Claude Code may defer MCP tools (named in a reminder, loaded on demand): the names are in its requests either way.
    const all = fake
      .turnRequests()
      .map((request) => request.text)
      .join("\n");
    expect(all, context).toContain(`mcp__${server}__fs_write_file`);
    expect(all, context).toContain(`mcp__${server}__fs_read_text_file`);
    expect(all, context).not.toContain("fs_move_file");
  });

  it("the refused write never reached the server, and the model read the policy's reason", () => {
    const { cwd, fake, context } = session();
    expect(existsSync(join(cwd, "plan.md")), context).toBe(false);
    const turns = fake.turnRequests();
    expect(turns[0]!.text).not.toContain(DENY_REASON);
    expect(turns[1]!.text, context).toContain(JSON.stringify(DENY_REASON).slice(1, -1));
  });

  it("the allowed write was made by the real server, through the example's stamp hook", () => {
    const { cwd, fake, context } = session();
    expect(readFileSync(join(cwd, "notes/plan.md"), "utf8"), context).toBe(STAMPED);
    expect(fake.turnRequests()[2]!.text, context).toContain("Successfully wrote to notes/plan.md");
  });
}

/** A temp folder with a project (the gateway's config and notes/) and a home of its own. */
function workspace(prefix: string): { dir: string; cwd: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const cwd = join(dir, "project");
  const home = join(dir, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  gatewayProject(cwd);
  return { dir, cwd, home };
}

function contextOf(result: HarnessResult, cwd: string): string {
  const notes = existsSync(join(cwd, "notes/plan.md")) ? "notes/plan.md written" : "notes/plan.md missing";
  return `exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}; ${notes}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
}

const ready = harnesses.available && filesystemServer.available;
const title = `Claude Code ${harnesses.versions.claude} as the MCP client of hookwise mcp in front of @modelcontextprotocol/server-filesystem ${filesystemServer.version}`;

describe.skipIf(!ready)(`${title}, given by --mcp-config`, () => {
  let dir: string;
  let session: Session;

  beforeAll(async () => {
    const where = workspace("hookwise-claude-mcp-config-");
    dir = where.dir;
    const mcpConfig = join(dir, "mcp.json");
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          gate: { type: "stdio", command: process.execPath, args: [...CLI, "mcp", "hookwise.yaml"] },
        },
      }),
    );
    const fake = await startFakeAnthropic(writes("gate"));
    const result = await runClaude({
      cwd: where.cwd,
      home: where.home,
      fake,
      prompt: "Save the plan with the gate tools.",
      allowedTools: ["mcp__gate__fs_write_file"],
      args: ["--mcp-config", mcpConfig, "--strict-mcp-config"],
      env: { MCP_TIMEOUT: "60000" },
      timeoutMs: 150_000,
    });
    session = { cwd: where.cwd, fake, result, context: contextOf(result, where.cwd) };
  }, 180_000);

  afterAll(async () => {
    killAllHarnesses();
    await session?.fake.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describeSession(() => session, "gate");
});

describe.skipIf(!ready)(`${title}, named in the project's .mcp.json`, () => {
  let where: { dir: string; cwd: string; home: string };
  let fake: FakeModelServer;
  let session: Session;

  /** `claude mcp list` in the project: each server with its state (it starts the approved ones). */
  async function mcpList(home = where.home): Promise<string> {
    const listed = await spawnHarness({
      command: harnesses.bin.claude,
      args: ["mcp", "list"],
      cwd: where.cwd,
      env: claudeEnv(home, fake, { MCP_TIMEOUT: "60000" }),
      timeoutMs: 90_000,
    });
    return `${listed.stdout}${listed.stderr}`;
  }

  /** Marks the project folder trusted, as accepting Claude Code's trust dialog once does. */
  function trustProject(home: string): void {
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({ projects: { [where.cwd]: { hasTrustDialogAccepted: true } } }),
    );
  }

  beforeAll(async () => {
    where = workspace("hookwise-claude-mcp-json-");
    writeFileSync(
      join(where.cwd, ".mcp.json"),
      JSON.stringify({
        mcpServers: { gw: { command: process.execPath, args: [...CLI, "mcp", "hookwise.yaml"] } },
      }),
    );
    fake = await startFakeAnthropic(writes("gw"));
  });

  afterAll(async () => {
    killAllHarnesses();
    await fake?.close();
    if (where) rmSync(where.dir, { recursive: true, force: true });
  });

  it("is pending approval until the settings approve it", async () => {
    trustProject(where.home);
    const listed = await mcpList();
    expect(listed).toMatch(/gw: .*Pending approval/);
    expect(listed).not.toContain("Connected");
  }, 120_000);

  it("is not approved by the project's settings in a folder not trusted yet", async () => {
    const home = join(where.dir, "untrusted-home");
    mkdirSync(home, { recursive: true });
    mkdirSync(join(where.cwd, ".claude"), { recursive: true });
    const local = join(where.cwd, ".claude", "settings.local.json");
    writeFileSync(local, JSON.stringify({ enabledMcpjsonServers: ["gw"] }));
    try {
      expect(await mcpList(home)).toMatch(/gw: .*Pending approval/);
    } finally {
      rmSync(local);
    }
  }, 120_000);

  it("is approved by enableAllProjectMcpServers in the user's settings, and connects", async () => {
    const home = join(where.dir, "approving-home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    expect(await mcpList(home)).toMatch(/gw: .*Connected/);
  }, 120_000);

  it("is approved by enabledMcpjsonServers in .claude/settings.local.json of a trusted folder, and connects", async () => {
    mkdirSync(join(where.cwd, ".claude"), { recursive: true });
    writeFileSync(
      join(where.cwd, ".claude", "settings.local.json"),
      JSON.stringify({ enabledMcpjsonServers: ["gw"] }),
    );
    // Claude Code started `hookwise mcp` and completed the MCP handshake with it.
    expect(await mcpList()).toMatch(/gw: .*Connected/);
  }, 120_000);

  describe("then claude -p", () => {
    beforeAll(async () => {
      const result = await runClaude({
        cwd: where.cwd,
        home: where.home,
        fake,
        prompt: "Save the plan with the gw tools.",
        allowedTools: ["mcp__gw__fs_write_file"],
        env: { MCP_TIMEOUT: "60000" },
        timeoutMs: 150_000,
      });
      session = { cwd: where.cwd, fake, result, context: contextOf(result, where.cwd) };
    }, 180_000);

    describeSession(() => session, "gw");
  });
});
