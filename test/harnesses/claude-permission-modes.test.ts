import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { harnesses } from "../support/harnesses/install.js";
import {
  endGuardedClaude,
  type GuardedClaudeRun,
  runGuardedClaude,
} from "../support/harnesses/run-claude.js";

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
    let run: GuardedClaudeRun;
    let cwd: string;
    let context: string;

    beforeAll(async () => {
      run = await runGuardedClaude({
        prefix: "hookwise-claude-bypass-",
        cli: CLI,
        files: () => ({ "hookwise.yaml": CONFIG }),
        turns: [
          { tool: "Bash", input: { command: "echo deploy > deployed.txt", description: "deploy" } },
          { tool: "Bash", input: { command: "echo forbidden > forbidden.txt", description: "forbidden" } },
          { tool: "Bash", input: { command: "echo ok > ok.txt", description: "ok" } },
          { text: "Done." },
        ],
        prompt: "Deploy, then the rest.",
        allowedTools: [],
        args: ["--dangerously-skip-permissions"],
        // Claude Code refuses to skip permissions as root outside a sandbox it is told of.
        env: { IS_SANDBOX: "1" },
      });
      ({ cwd, context } = run);
    }, 240_000);

    afterAll(() => endGuardedClaude(run));

    it("the command no policy names ran with no --allowedTools: permissions are bypassed", () => {
      expect(run.result.exitCode, context).toBe(0);
      expect(existsSync(join(cwd, "ok.txt")), context).toBe(true);
    });

    it("the command hookwise asks about did not run, and the model read why", () => {
      expect(existsSync(join(cwd, "deployed.txt")), context).toBe(false);
      expect(run.fake.turnRequests()[1]?.text, context).toContain(ASKED);
    });

    it("the denied command did not run, and the model read why", () => {
      expect(existsSync(join(cwd, "forbidden.txt")), context).toBe(false);
      expect(run.fake.turnRequests()[2]?.text, context).toContain(DENIED);
    });
  },
);
