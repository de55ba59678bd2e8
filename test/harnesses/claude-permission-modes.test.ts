import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import type { FakeModelServer } from "../support/harnesses/fake-model-server.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude, runContext, setupClaude } from "../support/harnesses/run-claude.js";
import { type HarnessResult, killAllHarnesses } from "../support/harnesses/run-harness.js";

const ASKED = "deploys need a person's yes";
const DENIED = "nothing forbidden here";

const CONFIG = `harness: claude
runtime:
  policies:
    - { decision: ask_user, tool: Bash, when: 'args.command.contains("deploy")', reason: "${ASKED}" }
    - { decision: deny, tool: Bash, when: 'args.command.contains("forbidden")', reason: "${DENIED}" }
`;

// Claude Code run with every permission check skipped (`--dangerously-skip-permissions`, the
// `bypassPermissions` mode): hookwise's hooks still decide. Some Claude Code versions in
// other modes were reported to run a call a hook asked about without asking.
describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude} with permissions bypassed`,
  () => {
    let folder: string;
    let cwd: string;
    let fake: FakeModelServer;
    let result: HarnessResult;
    let context: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "hookwise-claude-bypass-"));
      cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      mkdirSync(home, { recursive: true });
      writeFileSync(join(cwd, "hookwise.yaml"), CONFIG);
      setupClaude(CLI, cwd, home);
      fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "echo deploy > deployed.txt", description: "deploy" } },
        { tool: "Bash", input: { command: "echo forbidden > forbidden.txt", description: "forbidden" } },
        { tool: "Bash", input: { command: "echo ok > ok.txt", description: "ok" } },
        { text: "Done." },
      ]);
      result = await runClaude({
        cwd,
        home,
        fake,
        prompt: "Deploy, then the rest.",
        allowedTools: [],
        args: ["--dangerously-skip-permissions"],
        // Claude Code refuses to skip permissions as root outside a sandbox it is told of.
        env: { IS_SANDBOX: "1" },
        timeoutMs: 170_000,
      });
      context = runContext(result, cwd);
    }, 240_000);

    afterAll(async () => {
      killAllHarnesses();
      await fake?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("the command no policy names ran with no --allowedTools: permissions are bypassed", () => {
      expect(result.exitCode, context).toBe(0);
      expect(existsSync(join(cwd, "ok.txt")), context).toBe(true);
    });

    it("the command hookwise asks about did not run, and the model read why", () => {
      expect(existsSync(join(cwd, "deployed.txt")), context).toBe(false);
      expect(fake.turnRequests()[1]?.text, context).toContain(ASKED);
    });

    it("the denied command did not run, and the model read why", () => {
      expect(existsSync(join(cwd, "forbidden.txt")), context).toBe(false);
      expect(fake.turnRequests()[2]?.text, context).toContain(DENIED);
    });
  },
);
