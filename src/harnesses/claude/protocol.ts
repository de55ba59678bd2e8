/**
 * Claude Code's hooks: `hookwise hook --harness claude` answers each of its events with the
 * config's hooks and policies (the mapping table is in docs/harnesses.md).
 */

import type { HarnessEventKind, HarnessProtocol } from "../types.js";
import { claudeSettings } from "./settings.js";
import { CLAUDE_TOOLS } from "./tools.js";
import { answerClaudeWire, parseClaudeWire, refuseClaudeWire } from "./wire.js";

const EVENTS: Readonly<Record<string, HarnessEventKind>> = {
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "run_start",
  Stop: "run_end",
  SubagentStop: "run_end",
  PreToolUse: "tool_call",
  PostToolUse: "tool_result",
  PostToolUseFailure: "tool_error",
  PermissionRequest: "approval_request",
  PreCompact: "pre_compact",
  Notification: "notification",
};

export const claudeProtocol: HarnessProtocol = {
  name: "claude",
  label: "Claude Code",
  events: EVENTS,
  tools: CLAUDE_TOOLS,
  shellTool: "Bash",
  settings: claudeSettings,
  parse: (payload) => parseClaudeWire("claude", "Claude Code", EVENTS, payload),
  answer: answerClaudeWire,
  refuse: (reason) => refuseClaudeWire(reason),
};
