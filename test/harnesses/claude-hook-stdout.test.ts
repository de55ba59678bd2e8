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

const CONFIG = `harness: claude
toolsets:
  audit: { kind: module, path: ./audit-tools.mjs }
runtime:
  policies:
    - { decision: ask_user, tool: Bash, when: 'args.command.contains("deploy")', reason: "${ASKED}" }
  hooks:
    - id: rewrite-marked
      on: tool_call
      condition: { type: expression, expr: 'has(args.command) && args.command.contains("rewrite-me")' }
      action: { type: transform_params, transformation: { set: { command: "echo rewritten > rewritten.txt" } } }
    - id: audit
      on: tool_call
      action: { type: call_tool, module: audit, action: record }
`;

// A tool module that prints on stdout when it loads and each time it runs.
const AUDIT_TOOLS = `import { appendFileSync } from "node:fs";
console.log("audit tools loaded");
process.stdout.write("audit tools: written\\n");
export const record = {
  description: "Records a call",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    console.log("audit: recorded");
    console.info("audit: info");
    process.stdout.write("audit: written\\n");
    appendFileSync(${JSON.stringify("AUDIT_LOG")}, "recorded\\n");
    return "ok";
  },
};
`;

describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude}: a config's code that prints on stdout`,
  () => {
    let run: GuardedClaudeRun;
    let cwd: string;
    let context: string;

    beforeAll(async () => {
      run = await runGuardedClaude({
        prefix: "hookwise-claude-stdout-",
        cli: CLI,
        files: (folder) => ({
          "hookwise.yaml": CONFIG,
          "audit-tools.mjs": AUDIT_TOOLS.replace(
            JSON.stringify("AUDIT_LOG"),
            JSON.stringify(join(folder, "audit.log")),
          ),
        }),
        turns: [
          { tool: "Bash", input: { command: "echo rewrite-me > original.txt", description: "write" } },
          { tool: "Bash", input: { command: "echo deploy > deployed.txt", description: "deploy" } },
          { text: "Done." },
        ],
        prompt: "Write, then deploy.",
      });
      ({ cwd, context } = run);
    }, 240_000);

    afterAll(() => endGuardedClaude(run));

    it("the audit hook ran on each call", () => {
      expect(run.result.exitCode, context).toBe(0);
      expect(existsSync(join(run.folder, "audit.log")), context).toBe(true);
    });

    it("the rewritten command ran in place of the original", () => {
      expect(existsSync(join(cwd, "rewritten.txt")), context).toBe(true);
      expect(existsSync(join(cwd, "original.txt")), context).toBe(false);
    });

    it("the command hookwise asks about did not run, and the model read why", () => {
      expect(existsSync(join(cwd, "deployed.txt")), context).toBe(false);
      const turns = run.fake.turnRequests();
      expect(turns.length, context).toBe(3);
      expect(turns[2]!.text, context).toContain(ASKED);
    });
  },
);
