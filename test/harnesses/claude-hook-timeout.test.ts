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
    let folder: string;
    let cwd: string;
    let fake: FakeModelServer;
    let result: HarnessResult;
    let context: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "hookwise-claude-timeout-"));
      cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      mkdirSync(home, { recursive: true });
      writeFileSync(join(cwd, "hookwise.yaml"), CONFIG);
      writeFileSync(join(cwd, "slow-tools.mjs"), SLOW_TOOLS);
      setupClaude(CLI, cwd, home);
      fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "echo x > ran.txt", description: "write" } },
        { text: "Done." },
      ]);
      result = await runClaude({ cwd, home, fake, prompt: "Write the file.", timeoutMs: 170_000 });
      context = runContext(result, cwd);
    }, 240_000);

    afterAll(async () => {
      killAllHarnesses();
      await fake?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("the prompt was refused: the model was never asked, nothing ran", () => {
      expect(result.timedOut, context).toBe(false);
      expect(fake.turnRequests().length, context).toBe(0);
      expect(existsSync(join(cwd, "ran.txt")), context).toBe(false);
    });
  },
);
