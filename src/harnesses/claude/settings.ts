/** Where Claude Code keeps its hooks: `.claude/settings.json` (project), `.claude/settings.local.json`, `~/.claude/settings.json`. */

import type { HarnessSettings } from "../types.js";
import { claudeStyleCommands, claudeStyleGroup } from "./settings-shape.js";

/** The events whose answer decides whether something happens. */
const GATES = new Set(["PreToolUse", "PermissionRequest", "UserPromptSubmit"]);

/**
 * The seconds Claude Code gives a gate's command: hookwise answers within its `--timeout`
 * (45 s), a server's answer and the fallback within 55 s. Claude Code's own default is 30 s
 * on UserPromptSubmit, and a hook it ends lets the prompt through.
 */
const GATE_TIMEOUT_S = 60;

export const claudeSettings: HarnessSettings = {
  files: {
    project: ".claude/settings.json",
    local: ".claude/settings.local.json",
    user: ".claude/settings.json",
  },
  eventsFor: {
    session_start: ["SessionStart"],
    session_end: ["SessionEnd"],
    run_start: ["UserPromptSubmit"],
    run_end: ["Stop", "SubagentStop"],
    tool_call: ["PreToolUse"],
    tool_result: ["PostToolUse"],
    tool_error: ["PostToolUseFailure"],
    approval_request: ["PermissionRequest"],
    pre_compact: ["PreCompact"],
  },
  // A gate's command that Claude Code ends (its timeout) or that cannot start blocks
  // (`onFailure: "block"`): by default Claude Code lets the call through.
  group: (command, event) => {
    const group = claudeStyleGroup(command, event);
    if (!GATES.has(event)) return group;
    const hooks = (group.hooks as Record<string, unknown>[]).map((hook) => ({
      ...hook,
      timeout: GATE_TIMEOUT_S,
      onFailure: "block",
    }));
    return { ...group, hooks };
  },
  commandsOf: claudeStyleCommands,
  projectDirVariable: "CLAUDE_PROJECT_DIR",
};
