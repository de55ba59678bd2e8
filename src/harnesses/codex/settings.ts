/** Where Codex CLI keeps its hooks: `.codex/hooks.json` in the project, `~/.codex/hooks.json` for the user. */
import { claudeStyleCommands, claudeStyleGroup } from "../claude/settings-shape.js";
import type { HarnessSettings } from "../types.js";

export const codexSettings: HarnessSettings = {
  files: { project: ".codex/hooks.json", local: undefined, user: ".codex/hooks.json" },
  eventsFor: {
    session_start: ["SessionStart"],
    run_start: ["UserPromptSubmit"],
    run_end: ["Stop"],
    tool_call: ["PreToolUse"],
    tool_result: ["PostToolUse"],
    approval_request: ["PermissionRequest"],
    pre_compact: ["PreCompact"],
  },
  group: claudeStyleGroup,
  commandsOf: claudeStyleCommands,
};
