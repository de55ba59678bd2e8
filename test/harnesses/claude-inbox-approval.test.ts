/**
 * The real Claude Code guarded by `hookwise hook` with `approvals: inbox`, and a real
 * `hookwise serve` on the same SQLite store deciding: `hookwise setup claude` writes the hook
 * entry, the fake Anthropic API has the model run two `deploy` commands, each of which the
 * config's policy asks about. The first is approved in the server's inbox and runs; the
 * second is denied there with a reason, does not run, and the model reads the reason.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import type { FakeModelServer } from "../support/harnesses/fake-model-server.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude } from "../support/harnesses/run-claude.js";
import { type HarnessResult, killAllHarnesses } from "../support/harnesses/run-harness.js";
import { hookConfig } from "../support/inbox-hook.js";
import { BANK_CONFIG, startServer, type TestServer } from "../support/server.js";

const DENIED = "not before the change freeze ends";

describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude} waiting in hookwise serve's inbox`,
  () => {
    let folder: string;
    let cwd: string;
    let server: TestServer;
    let fake: FakeModelServer;
    let result: HarnessResult;
    let decisions: { tool: string; status: number }[];
    let context: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "hookwise-claude-inbox-"));
      cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      mkdirSync(home, { recursive: true });
      const state = `{ kind: sqlite, path: ${join(folder, "state.db")} }`;
      writeFileSync(join(cwd, "hookwise.yaml"), hookConfig(state));
      execFileSync(process.execPath, [...CLI, "setup", "claude", "hookwise.yaml"], {
        cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
        stdio: "pipe",
      });
      server = await startServer({
        replaceConfig: BANK_CONFIG.replace("state: { kind: memory }", `state: ${state}`),
      });
      fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "echo deploy > approved.txt", description: "deploy" } },
        { tool: "Bash", input: { command: "echo deploy > denied.txt", description: "deploy again" } },
        { text: "Done." },
      ]);
      // The reviewer: approves the first waiting call, denies the second.
      decisions = [];
      let reviewing = true;
      const reviewer = (async () => {
        const seen = new Set<string>();
        while (reviewing && decisions.length < 2) {
          const { approvals } = (await (await server.fetch("/approvals")).json()) as { approvals: any[] };
          for (const item of approvals.filter((entry) => entry.waiter && !seen.has(entry.id))) {
            seen.add(item.id);
            const approve = decisions.length === 0;
            const response = await server.post(`/approvals/${item.id}`, {
              decision: approve ? "approve" : "deny",
              ...(approve ? {} : { reason: DENIED }),
            });
            decisions.push({ tool: item.args.command, status: response.status });
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      result = await runClaude({ cwd, home, fake, prompt: "Deploy twice.", timeoutMs: 170_000 });
      reviewing = false;
      await reviewer;
      context = `exit ${result.exitCode}${result.timedOut ? " (timed out)" : ""}; files: ${readdirSync(cwd).join(", ")}; decisions: ${JSON.stringify(decisions)}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-3000)}`;
    }, 240_000);

    afterAll(async () => {
      killAllHarnesses();
      await fake?.close();
      await server?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("each deploy waited in the inbox and was decided there once", () => {
      expect(result.timedOut, context).toBe(false);
      expect(result.exitCode, context).toBe(0);
      expect(decisions, context).toEqual([
        { tool: "echo deploy > approved.txt", status: 200 },
        { tool: "echo deploy > denied.txt", status: 200 },
      ]);
    });

    it("the approved command ran", () => {
      expect(existsSync(join(cwd, "approved.txt")), context).toBe(true);
    });

    it("the denied command did not run, and the model read the reviewer's reason", () => {
      expect(existsSync(join(cwd, "denied.txt")), context).toBe(false);
      const turns = fake.turnRequests();
      expect(turns.length, context).toBe(3);
      expect(turns[1]!.text).not.toContain(DENIED);
      expect(turns[2]!.text, context).toContain(DENIED);
    });
  },
);
