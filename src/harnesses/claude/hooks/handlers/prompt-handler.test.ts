/**
 * `type: "prompt"` handlers: a model of the config answers `{ ok, reason }`; `ok: false`
 * blocks as exit 2 does (a Stop hook keeps the agent going, a PreToolUse hook denies).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../../../test/support/surfaces.js";
import { loadConfig } from "../../../../config/load-config.js";
import { createAgent, scriptedModel, tool } from "../../../../index.js";
import { claudeHooks } from "../claude-hooks.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-claude-prompt-"));
  mkdirSync(join(dir, ".claude"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function setup(judge: string[], main: string[]): string {
  writeFileSync(
    join(dir, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "prompt", prompt: "Is this command safe to run? $ARGUMENTS", model: "judge" }],
          },
        ],
        Stop: [{ hooks: [{ type: "prompt", prompt: "Did the agent run the tests?", model: "judge" }] }],
      },
    }),
  );
  writeFileSync(join(dir, "judge.yaml"), judge.join("\n"));
  writeFileSync(join(dir, "main.yaml"), main.join("\n"));
  const config = join(dir, "hookwise.yaml");
  writeFileSync(
    config,
    [
      "models:",
      "  default: scripted:./main.yaml",
      "  judge: scripted:./judge.yaml",
      "toolsets:",
      "  code: { kind: builtin, module: coding, root: . }",
      "claude_hooks: .claude/settings.json",
    ].join("\n"),
  );
  return config;
}

describe("prompt handlers", () => {
  it.each(SURFACES)(
    "%s: the judge's ok:false denies a Bash call and keeps the agent from stopping",
    async (surface) => {
      const config = setup(
        [
          '- text: \'{"ok": false, "reason": "it deletes the workspace"}\'',
          '- text: \'Sure. {"ok": false, "reason": "run the tests first"}\'',
          "- text: '{\"ok\": true}'",
        ],
        [
          "- tool_calls:",
          '  - { name: Bash, args: { command: "touch deleted-everything" } }',
          "- text: done",
          "- text: done, tests pass",
        ],
      );
      const loaded = await loadConfig(config, { logger: quiet });
      try {
        const agent = await loaded.createAgent();
        const { result } = await runOn(surface, agent, "clean up");
        expect(result.outcome).toBe("completed");
        expect(result.text).toBe("done, tests pass");
        const denied = result.steps[0]!.toolResults[0]!;
        expect(denied).toMatchObject({ executed: false, isError: true });
        expect(String(denied.result)).toContain("it deletes the workspace");
        expect(JSON.stringify(result.requests[2]!.messages.at(-1))).toContain("run the tests first");
      } finally {
        await loaded.close();
      }
      expect(() => readFileSync(join(dir, "deleted-everything"))).toThrow();
    },
  );

  it("the model is asked the prompt with the event's JSON in place of $ARGUMENTS (after it when absent)", async () => {
    const asked: { prompt: string; model: string | undefined }[] = [];
    const set = claudeHooks(
      {
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "prompt", prompt: "Safe? $ARGUMENTS (answer)", model: "judge" }],
            },
          ],
          Stop: [{ hooks: [{ type: "prompt", prompt: "Done?" }] }],
        },
      },
      {
        log: quiet,
        answerPrompt: async ({ prompt, model }) => {
          asked.push({ prompt, model });
          return '{"ok": true}';
        },
      },
    );
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: "Bash", args: { command: "ls" } }] }, { text: "done" }]),
      tools: {
        Bash: tool({
          inputSchema: { type: "object", properties: { command: { type: "string" } } },
          execute: () => "ok",
        }),
      },
      hooks: [...set],
    });
    expect((await agent.run("go")).outcome).toBe("completed");
    expect(asked.map((entry) => entry.model)).toEqual(["judge", undefined]);
    expect(asked[0]!.prompt).toMatch(
      /^Safe\? \{.*"hook_event_name":"PreToolUse".*"tool_input":\{"command":"ls"\}.*\} \(answer\)/s,
    );
    expect(asked[1]!.prompt).toMatch(/^Done\?\n\n\{.*"hook_event_name":"Stop"/s);
    await set.close();
  });

  it("without a model to answer them (claudeHooks in code without answerPrompt), they are reported and skipped", () => {
    const warnings: string[] = [];
    const set = claudeHooks(
      { hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "Done?" }] }] } },
      { log: quiet, onWarning: (issue) => warnings.push(issue.message) },
    );
    expect(set.handlers).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('"prompt" handlers need a model to answer them')]);
    const answered = claudeHooks(
      { hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "Done?" }] }] } },
      { log: quiet, answerPrompt: async () => '{"ok": true}' },
    );
    expect(answered.handlers.map((handler) => [handler.claudeEvent, handler.timeoutSeconds])).toEqual([
      ["Stop", 30],
    ]);
  });
});
