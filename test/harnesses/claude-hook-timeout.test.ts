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

const CONFIG = `harness: claude
toolsets:
  slow: { kind: module, path: ./slow-tools.mjs }
runtime:
  hooks:
    - id: slow-context
      on: run_start
      action: { type: call_tool_inject, module: slow, action: look, format: always }
    - id: no-prompts
      on: run_start
      action: { type: gate, reason: "no prompts today" }
`;

const SLOW_TOOLS = `export const look = {
  description: "Takes 35 s",
  inputSchema: { type: "object", properties: {} },
  execute: () => new Promise((resolve) => setTimeout(() => resolve("looked"), 35_000)),
};
`;

describe.skipIf(!harnesses.available)(
  `Claude Code ${harnesses.versions.claude}: a prompt's decision that takes over 30 s`,
  () => {
    let run: GuardedClaudeRun;
    let cwd: string;
    let context: string;

    beforeAll(async () => {
      run = await runGuardedClaude({
        prefix: "hookwise-claude-timeout-",
        cli: CLI,
        files: () => ({ "hookwise.yaml": CONFIG, "slow-tools.mjs": SLOW_TOOLS }),
        turns: [
          { tool: "Bash", input: { command: "echo x > ran.txt", description: "write" } },
          { text: "Done." },
        ],
        prompt: "Write the file.",
      });
      ({ cwd, context } = run);
    }, 240_000);

    afterAll(() => endGuardedClaude(run));

    it("the prompt was refused: the model was never asked, nothing ran", () => {
      expect(run.result.timedOut, context).toBe(false);
      expect(run.fake.turnRequests().length, context).toBe(0);
      expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
    });
  },
);
