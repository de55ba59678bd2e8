/**
 * Every Claude Code event hookwise runs, with small inline handlers (a command line that
 * prints an answer, or saves its stdin): what fires where, what each answer does, on run()
 * and stream().
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../../../test/support/surfaces.js";
import {
  type AnyHook,
  createAgent,
  defineHook,
  flow,
  type HookLogger,
  type ModelMessage,
  NotificationBus,
  resolveTool,
  type ScriptStep,
  scriptedModel,
  subAgentTool,
  tool,
} from "../../../index.js";
import { type ClaudeHooksOptions, type ClaudeSettings, claudeHooks } from "./index.js";

let dir: string;
let warnings: string[];
const log: HookLogger = { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-claude-events-"));
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A handler that prints this JSON answer. */
function answers(json: unknown, extra: Record<string, unknown> = {}) {
  return { type: "command", command: `printf '%s' '${JSON.stringify(json)}'`, ...extra };
}

/** A handler that appends its stdin (one JSON line) to `<name>.jsonl` in the project, then pipes it to `then`. */
function saves(name: string, then = "true") {
  const file = `"$CLAUDE_PROJECT_DIR/${name}.jsonl"`;
  return {
    type: "command",
    command: `input=$(cat); printf '%s\\n' "$input" >> ${file}; printf '%s' "$input" | ${then}`,
  };
}

function saved(name: string): Record<string, unknown>[] {
  const file = join(dir, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function hooksOf(settings: ClaudeSettings, options: ClaudeHooksOptions = {}) {
  return claudeHooks(settings, {
    projectDir: dir,
    transcriptDir: join(dir, ".transcripts"),
    log,
    ...options,
  });
}

const ran: string[] = [];
const tools = () => [
  resolveTool(
    "Bash",
    tool({
      inputSchema: z.object({ command: z.string() }),
      execute: ({ command }) => {
        ran.push(command);
        if (command === "fail") throw new Error("command failed: exit 1");
        return `ran ${command}`;
      },
    }),
  ),
  resolveTool(
    "get_memories",
    tool({
      inputSchema: z.object({}),
      alias: { name: "mcp__memory__get_memories" },
      execute: () => "raw memories",
    }),
  ),
];

function agentWith(settings: ClaudeSettings, script: ScriptStep[], more: readonly AnyHook[] = []) {
  ran.length = 0;
  const model = scriptedModel(script);
  const list = tools();
  // The tools are given to claudeHooks for their Claude Code names (get_memories is an MCP-style alias).
  const hooks = [...hooksOf(settings, { tools: list }), ...more];
  const agent = createAgent({ model, tools: list, hooks, logger: log });
  return { agent, model };
}

function textOf(message: ModelMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => ("text" in part ? part.text : JSON.stringify(part))).join("");
}

const bash = (command: string): ScriptStep => ({ toolCalls: [{ name: "Bash", args: { command } }] });

describe("tool events", () => {
  it.each(SURFACES)(
    "%s: PostToolUse sees tool_response; its block reason and additionalContext reach the model after the step",
    async (surface) => {
      const { agent } = agentWith(
        {
          hooks: {
            PostToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  saves("post"),
                  answers({ decision: "block", reason: "lint failed: fix src/a.ts" }),
                  answers({
                    hookSpecificOutput: {
                      hookEventName: "PostToolUse",
                      additionalContext: "formatted 1 file",
                    },
                  }),
                ],
              },
            ],
          },
        },
        [bash("npm run build"), { text: "done" }],
      );
      const { result } = await runOn(surface, agent, "build");
      expect(ran).toEqual(["npm run build"]);
      expect(saved("post")[0]).toMatchObject({
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm run build" },
        tool_response: [{ type: "text", text: "ran npm run build" }],
        tool_use_id: expect.any(String),
      });
      const second = result.requests[1]!.messages;
      expect(second.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
      expect(textOf(second[3])).toBe("lint failed: fix src/a.ts\n\nformatted 1 file");
      expect(result.events).toContainEqual(
        expect.objectContaining({
          event: "step_end",
          hook: "claude-hooks:additionalContext",
          effect: "inject",
        }),
      );
    },
  );

  it.each(SURFACES)(
    '%s: PreToolUse {"decision":"approve"} (the older answer) is an allow',
    async (surface) => {
      const { agent } = agentWith(
        {
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [answers({ decision: "approve", reason: "fine" })] }],
          },
        },
        [bash("ls"), { text: "done" }],
      );
      const { result } = await runOn(surface, agent, "list");
      expect(ran).toEqual(["ls"]);
      expect(result.events).toContainEqual(
        expect.objectContaining({ event: "tool_call", kind: "decide", effect: "allow" }),
      );
    },
  );

  it.each(SURFACES)("%s: PostToolUseFailure fires when a tool throws, with the error", async (surface) => {
    const { agent } = agentWith(
      {
        hooks: {
          PostToolUseFailure: [
            {
              hooks: [
                saves(
                  "failure",
                  `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"try make instead"}}'`,
                ),
              ],
            },
          ],
          PostToolUse: [{ hooks: [saves("post")] }],
        },
      },
      [bash("fail"), { text: "done" }],
    );
    const { result } = await runOn(surface, agent, "go");
    expect(saved("failure")[0]).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      error: "command failed: exit 1",
      is_interrupt: false,
    });
    expect(saved("post")).toEqual([]); // PostToolUse is for calls that succeeded
    expect(textOf(result.requests[1]!.messages.at(-1))).toBe("try make instead");
  });

  it.each(SURFACES)(
    "%s: updatedMCPToolOutput replaces an MCP tool's result (mcp__<server>__<tool>), not another tool's",
    async (surface) => {
      const replace = answers({
        hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: "[redacted]" },
      });
      const { agent } = agentWith(
        {
          hooks: {
            PostToolUse: [
              { matcher: "mcp__memory__.*", hooks: [replace] },
              { matcher: "Bash", hooks: [replace] },
            ],
          },
        },
        [
          {
            toolCalls: [
              { name: "get_memories", args: {} },
              { name: "Bash", args: { command: "ls" } },
            ],
          },
          { text: "done" },
        ],
      );
      const { result } = await runOn(surface, agent, "recall");
      expect(result.steps[0]!.toolResults.map((item) => item.result)).toEqual(["[redacted]", "ran ls"]);
      expect(warnings.join("\n")).toContain(
        "updatedMCPToolOutput applies to MCP tools only; Bash keeps its result",
      );
    },
  );

  it.each(SURFACES)("%s: continue: false on PreToolUse ends the run with its stopReason", async (surface) => {
    const { agent } = agentWith(
      { hooks: { PreToolUse: [{ hooks: [answers({ continue: false, stopReason: "budget exhausted" })] }] } },
      [bash("ls"), { text: "never" }],
    );
    const { result } = await runOn(surface, agent, "go");
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ outcome: "terminated", reason: "budget exhausted" });
  });

  it.each(SURFACES)(
    "%s: ask (and defer) go to approval: PermissionRequest answers it, Notification hears permission_prompt",
    async (surface) => {
      const ask = answers({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "ask",
          permissionDecisionReason: "deploys need a human",
        },
      });
      const decide = answers({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: "not on Fridays" },
        },
      });
      const { agent } = agentWith(
        {
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [ask] }],
            PermissionRequest: [{ matcher: "Bash", hooks: [decide] }],
            Notification: [{ matcher: "permission_prompt", hooks: [saves("notification")] }],
          },
        },
        [bash("deploy"), { text: "ok" }],
      );
      const { result } = await runOn(surface, agent, "ship");
      expect(ran).toEqual([]);
      expect(result.steps[0]!.toolResults[0]!.result).toContain("not on Fridays");
      expect(saved("notification")[0]).toMatchObject({
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "hookwise needs your approval to use Bash: deploys need a human",
      });
    },
  );

  it.each(SURFACES)(
    "%s: with no approval channel, an ask suspends the run (defer: the same)",
    async (surface) => {
      const { agent } = agentWith(
        {
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  answers({
                    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "defer" },
                  }),
                ],
              },
            ],
          },
        },
        [bash("deploy"), { text: "ok" }],
      );
      const { result } = await runOn(surface, agent, "ship");
      expect(result.outcome).toBe("suspended");
      expect(result.approvals?.[0]).toMatchObject({ toolName: "Bash", args: { command: "deploy" } });
      expect(ran).toEqual([]);
    },
  );

  it.each(SURFACES)("%s: an async handler blocks nothing (its exit 2 is not waited for)", async (surface) => {
    const { agent } = agentWith(
      {
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: "echo no >&2; exit 2", async: true }] }],
        },
      },
      [bash("ls"), { text: "ok" }],
    );
    await runOn(surface, agent, "go");
    expect(ran).toEqual(["ls"]);
  });
});

describe("run and session events", () => {
  it.each(SURFACES)("%s: UserPromptSubmit exit 2 stops the run before any model call", async (surface) => {
    const { agent, model } = agentWith(
      {
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: "echo 'no secrets in prompts' >&2; exit 2" }] },
          ],
        },
      },
      [{ text: "never" }],
    );
    const { result } = await runOn(surface, agent, "my password is hunter2");
    expect(result).toMatchObject({ outcome: "terminated", reason: "no secrets in prompts" });
    expect(model.calls).toHaveLength(0);
  });

  it.each(SURFACES)(
    "%s: SessionStart's plain stdout is context before the first run's message; once per session",
    async (surface) => {
      const { agent } = agentWith(
        {
          hooks: {
            SessionStart: [
              {
                matcher: "startup",
                hooks: [{ type: "command", command: "echo 'branch: main, 2 files changed'" }],
              },
            ],
          },
        },
        [{ text: "one" }, { text: "two" }],
      );
      const first = await runOn(surface, agent, "hi", { sessionId: "s1" });
      expect(first.result.requests[0]!.messages.map(textOf)).toEqual(["branch: main, 2 files changed", "hi"]);
      const second = await runOn(surface, agent, "again", { sessionId: "s1" });
      expect(second.result.requests[0]!.messages.map(textOf)).toEqual([
        "branch: main, 2 files changed",
        "hi",
        "one",
        "again",
      ]);
    },
  );

  it("SessionEnd fires when the session ends, with Claude Code's reason", async () => {
    const { agent } = agentWith({ hooks: { SessionEnd: [{ hooks: [saves("end")] }] } }, [{ text: "one" }]);
    await agent.run("hi", { sessionId: "s2" });
    await agent.endSession("s2", { reason: "closed" });
    expect(saved("end")[0]).toMatchObject({
      hook_event_name: "SessionEnd",
      session_id: "s2",
      reason: "prompt_input_exit",
      hookwise_reason: "closed",
    });
  });

  it.each(SURFACES)("%s: `once: true` runs a handler once per session", async (surface) => {
    const { agent } = agentWith(
      { hooks: { UserPromptSubmit: [{ hooks: [{ ...saves("once"), once: true }] }] } },
      [{ text: "one" }, { text: "two" }],
    );
    await runOn(surface, agent, "a", { sessionId: "s3" });
    await runOn(surface, agent, "b", { sessionId: "s3" });
    expect(saved("once").map((entry) => entry.prompt)).toEqual(["a"]);
  });

  it.each(SURFACES)("%s: PreCompact's exit 2 vetoes a compaction", async (surface) => {
    const compactor = defineHook({
      name: "compactor",
      on: "step_start",
      kind: "transform",
      handler: (_event, context) =>
        context.messages.length > 1
          ? flow.compact({
              remove: context.messages.slice(0, 1),
              replacement: [{ role: "user", content: "summary" }],
            })
          : undefined,
    });
    const { agent } = agentWith(
      {
        hooks: {
          PreCompact: [
            { matcher: "auto", hooks: [{ type: "command", command: "echo 'keep everything' >&2; exit 2" }] },
          ],
        },
      },
      [bash("ls"), { text: "done" }],
      [compactor],
    );
    const { result } = await runOn(surface, agent, "go");
    expect(result.messages.map(textOf)).not.toContain("summary");
    expect(result.events).toContainEqual(
      expect.objectContaining({
        event: "pre_compact",
        kind: "decide",
        effect: "deny",
        detail: "keep everything",
      }),
    );
  });

  it("Notification handlers run for each notify notification; close() waits for them", async () => {
    const bus = new NotificationBus();
    const hooks = hooksOf(
      { hooks: { Notification: [{ matcher: "notify", hooks: [saves("notify")] }] } },
      { notifications: bus },
    );
    bus.publish({
      title: "Context",
      message: "pressure at 81%",
      level: "warning",
      hook: "h",
      sessionId: "s4",
      runId: "r",
      at: 0,
    });
    await hooks.close();
    expect(saved("notify")[0]).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "notify",
      title: "Context",
      message: "pressure at 81%",
      session_id: "s4",
    });
  });
});

describe("sub-agents", () => {
  it.each(SURFACES)(
    "%s: SubagentStart adds context to the sub-agent; SubagentStop keeps it working once; Stop is the parent's",
    async (surface) => {
      const reviewerModel = scriptedModel([{ text: "looks fine" }, { text: "checked twice: fine" }]);
      const reviewer = createAgent({ name: "reviewer", model: reviewerModel });
      const settings: ClaudeSettings = {
        hooks: {
          SubagentStart: [
            {
              matcher: "reviewer",
              hooks: [
                answers({
                  hookSpecificOutput: {
                    hookEventName: "SubagentStart",
                    additionalContext: "review for security",
                  },
                }),
              ],
            },
          ],
          SubagentStop: [
            {
              matcher: "reviewer",
              hooks: [
                saves(
                  "subagent-stop",
                  `jq -e '.stop_hook_active' >/dev/null || printf '%s' '{"decision":"block","reason":"look again"}'`,
                ),
              ],
            },
          ],
          Stop: [{ hooks: [saves("stop")] }],
        },
      };
      const model = scriptedModel([
        { toolCalls: [{ name: "agents_reviewer", args: { task: "review the diff" } }] },
        { text: "reviewed" },
      ]);
      const main = createAgent({
        name: "main",
        model,
        hooks: hooksOf(settings),
        tools: [subAgentTool(reviewer, { name: "reviewer" })],
        logger: log,
      });
      const { result } = await runOn(surface, main, "review please");
      expect(result.outcome).toBe("completed");
      expect(result.steps[0]!.toolResults[0]!.result).toBe("checked twice: fine");
      expect(reviewerModel.calls).toHaveLength(2);
      expect(JSON.stringify(reviewerModel.calls[0])).toContain("review for security");
      expect(JSON.stringify(reviewerModel.calls[1])).toContain("look again");
      expect(saved("subagent-stop").map((entry) => [entry.agent_type, entry.stop_hook_active])).toEqual([
        ["reviewer", false],
        ["reviewer", true],
      ]);
      expect(saved("subagent-stop")[0]).toMatchObject({
        last_assistant_message: "looks fine",
        agent_id: expect.any(String),
      });
      // Stop fired once, for the main agent only.
      expect(saved("stop").map((entry) => [entry.last_assistant_message, entry.agent_type])).toEqual([
        ["reviewed", undefined],
      ]);
    },
  );
});

describe("answers", () => {
  it.each(SURFACES)("%s: unknown fields and systemMessage are reported, never fatal", async (surface) => {
    const { agent } = agentWith(
      {
        hooks: {
          Stop: [
            { hooks: [answers({ systemMessage: "3 TODOs left", suppressOutput: true, colour: "red" })] },
          ],
        },
      },
      [{ text: "done" }],
    );
    const { result } = await runOn(surface, agent, "go");
    expect(result.outcome).toBe("completed");
    expect(warnings.join("\n")).toContain("answered fields hookwise does not know (ignored): colour");
    expect(warnings.join("\n")).toContain("3 TODOs left");
  });

  it.each(SURFACES)(
    "%s: JSON with a wrong type is unusable output (a failure, open by default)",
    async (surface) => {
      const { agent } = agentWith(
        {
          hooks: {
            PreToolUse: [{ hooks: [answers({ hookSpecificOutput: { permissionDecision: "maybe" } })] }],
          },
        },
        [bash("ls"), { text: "ok" }],
      );
      const { result } = await runOn(surface, agent, "go");
      expect(ran).toEqual(["ls"]);
      expect(result.events).toContainEqual(
        expect.objectContaining({
          effect: "fail_open",
          detail: expect.stringContaining(
            "answered with unusable JSON: hookSpecificOutput.permissionDecision",
          ),
        }),
      );
    },
  );
});
