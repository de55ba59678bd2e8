/**
 * The real Claude Code as the MCP client of `hookwise mcp`: `claude -p --mcp-config` names
 * the gateway over stdio (the gateway's fixture config: module tools, a policy that denies
 * writes outside the output folder), and the fake Anthropic API has the model call the
 * gateway's tool twice — once with a path the policy denies, once with one it allows. The
 * denied call leaves no file and the model reads the policy's reason in its next request;
 * the allowed one writes its file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, type GatewayDir, gatewayDir } from "../gateway/gateway-fixture.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import type { FakeModelServer } from "../support/harnesses/fake-model-server.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude } from "../support/harnesses/run-claude.js";
import { type HarnessResult, killAllHarnesses } from "../support/harnesses/run-harness.js";

const DENY_REASON = "writes stay inside the output folder";

describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude} as the MCP client of hookwise mcp`,
  () => {
    let where: GatewayDir;
    let fake: FakeModelServer;
    let result: HarnessResult;
    let context: string;

    beforeAll(async () => {
      where = gatewayDir();
      const cwd = join(where.dir, "project");
      const home = join(where.dir, "home");
      mkdirSync(cwd, { recursive: true });
      mkdirSync(home, { recursive: true });
      const mcpConfig = join(where.dir, "mcp.json");
      writeFileSync(
        mcpConfig,
        JSON.stringify({
          mcpServers: {
            gate: {
              type: "stdio",
              command: process.execPath,
              args: [...CLI, "mcp", where.config],
              env: { GATEWAY_OUT_DIR: where.out },
            },
          },
        }),
      );
      fake = await startFakeAnthropic([
        {
          tool: "mcp__gate__files_write",
          input: { path: "/etc/hookwise-denied.txt", text: "should not exist" },
        },
        {
          tool: "mcp__gate__files_write",
          input: { path: "allowed.txt", text: "written through the gateway" },
        },
        { text: "Done." },
      ]);
      result = await runClaude({
        cwd,
        home,
        fake,
        prompt: "Write the two files with the gate tools.",
        allowedTools: ["mcp__gate__files_write"],
        args: ["--mcp-config", mcpConfig, "--strict-mcp-config"],
        env: { MCP_TIMEOUT: "60000" },
        timeoutMs: 150_000,
      });
      const out = existsSync(where.out) ? readdirSync(where.out).join(", ") : "(no output folder)";
      context = `exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}; out: ${out}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
    }, 180_000);

    afterAll(async () => {
      killAllHarnesses();
      await fake?.close();
      if (where) rmSync(where.dir, { recursive: true, force: true });
    });

    it("the session ends normally, after both calls", () => {
      expect(result.timedOut, context).toBe(false);
      expect(result.exitCode, context).toBe(0);
      expect(fake.turnRequests().length, context).toBe(3);
    });

    it("tells the model the gateway's tools under Claude Code's mcp__ names, not the one a policy denies outright", () => {
      // Claude Code may defer MCP tools (named in the prompt, loaded on demand): the name is in the request either way.
      const first = fake.turnRequests()[0]!.text;
      expect(first, context).toContain("mcp__gate__files_write");
      expect(first, context).toContain("mcp__gate__files_count");
      expect(first, context).not.toContain("files_danger");
    });

    it("the denied call never ran, and the model read the policy's reason", () => {
      expect(existsSync(join(where.out, "_etc_hookwise-denied.txt")), context).toBe(false);
      const turns = fake.turnRequests();
      expect(turns[0]!.text).not.toContain(DENY_REASON);
      expect(turns[1]!.text, context).toContain(DENY_REASON);
    });

    it("the allowed call ran through the gateway", () => {
      expect(readFileSync(join(where.out, "allowed.txt"), "utf8"), context).toBe(
        "written through the gateway",
      );
      expect(fake.turnRequests()[2]!.text, context).toContain("wrote allowed.txt");
    });
  },
);
