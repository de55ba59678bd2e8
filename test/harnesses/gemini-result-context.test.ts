/**
 * Gemini CLI reads no new result from an AfterTool hook: hookwise sends a rewritten result as
 * a deny whose reason is the new result. Context the hooks add beside the rewrite (a Claude
 * Code hook's `additionalContext`) must reach the model with it, in its next request.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLI } from "../gateway/gateway-fixture.js";
import { startFakeGemini } from "../support/harnesses/fake-gemini.js";
import { harnesses } from "../support/harnesses/install.js";
import { runContext } from "../support/harnesses/run-claude.js";
import { runGemini } from "../support/harnesses/run-gemini.js";
import { killAllHarnesses } from "../support/harnesses/run-harness.js";

const NOTE = "hookwise-reviewed-the-output";
const CONTEXT = "hookwise-context-check-the-exit-code";

const folders: string[] = [];
afterEach(() => killAllHarnesses());
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!harnesses.available)(
  `Gemini CLI ${harnesses.versions.gemini}: a rewritten tool result and added context`,
  () => {
    it("the model's next request holds the rewritten result and the context", async () => {
      const folder = mkdtempSync(join(tmpdir(), "hookwise-gemini-context-"));
      folders.push(folder);
      const cwd = join(folder, "project");
      const home = join(folder, "home");
      mkdirSync(cwd, { recursive: true });
      mkdirSync(home, { recursive: true });
      const script = join(folder, "add-context.mjs");
      const answer = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: CONTEXT } };
      writeFileSync(script, `process.stdout.write(${JSON.stringify(JSON.stringify(answer))});\n`);
      const guards = {
        hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `node ${script}` }] }] },
      };
      writeFileSync(join(folder, "guards.json"), JSON.stringify(guards));
      writeFileSync(
        join(cwd, "hookwise.yaml"),
        `harness: gemini
claude_hooks: ${join(folder, "guards.json")}
runtime:
  state: { kind: sqlite, path: ${join(folder, "state.db")} }
  hooks:
    - id: reviewed
      on: tool_result
      action: { type: transform_result, transformation: { append_to_result: " ${NOTE}" } }
`,
      );
      execFileSync(process.execPath, [...CLI, "setup", "gemini", "hookwise.yaml"], {
        cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
        stdio: "pipe",
      });
      const fake = await startFakeGemini([
        { tool: "run_shell_command", input: { command: "echo tool-said-this" } },
        { text: "Done." },
      ]);
      try {
        const result = await runGemini({ cwd, home, prompt: "Run it.", fake, timeoutMs: 170_000 });
        const context = runContext(result, cwd);
        expect(result.timedOut, context).toBe(false);
        const next = fake.turnRequests()[1]?.text ?? "";
        expect(next, context).toContain("tool-said-this");
        expect(next, context).toContain(NOTE);
        expect(next, context).toContain(CONTEXT);
      } finally {
        await fake.close();
      }
    }, 200_000);
  },
);
