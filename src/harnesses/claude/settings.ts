/** Where Claude Code keeps its hooks: `.claude/settings.json` (project), `.claude/settings.local.json`, `~/.claude/settings.json`. */

import type { HarnessSettings } from "../types.js";
import { claudeStyleCommands, claudeStyleGroup } from "./settings-shape.js";

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
  group: claudeStyleGroup,
  commandsOf: claudeStyleCommands,
  projectDirVariable: "CLAUDE_PROJECT_DIR",
};
