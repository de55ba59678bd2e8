/**
 * Codex CLI's hooks: the wire Claude Code defined (JSON on stdin and stdout, exit 2 to block),
 * with Codex's own events and tools.
 */
import { answerClaudeWire, parseClaudeWire, refuseClaudeWire } from "../claude/wire.js";
import type { HarnessEventKind, HarnessProtocol } from "../types.js";
import { codexVerdict } from "./codex-verdict.js";
import { codexSettings } from "./settings.js";
import { CODEX_TOOLS } from "./tools.js";

const EVENTS: Readonly<Record<string, HarnessEventKind>> = {
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "run_start",
  Stop: "run_end",
  PreToolUse: "tool_call",
  PostToolUse: "tool_result",
  PermissionRequest: "approval_request",
  PreCompact: "pre_compact",
  PostCompact: "notification",
};

export const codexProtocol: HarnessProtocol = {
  name: "codex",
  label: "Codex CLI",
  events: EVENTS,
  tools: CODEX_TOOLS,
  shellTool: "Bash",
  settings: codexSettings,
  parse: (payload) => parseClaudeWire("codex", "Codex CLI", EVENTS, payload),
  // Codex runs `updatedInput` only when the answer allows the call, a PostToolUse block
  // replaces the tool's output with its reason, and what it does not take fails open.
  answer: (event, verdict) =>
    answerClaudeWire(event, codexVerdict(event, verdict), {
      rewriteNeedsAllow: true,
      blockReplacesOutput: true,
    }),
  // Exit 2 is a failure to Codex's PreCompact, which then compacts: an event named PreCompact
  // that could not be read is refused with the one answer it takes there.
  refuse: (reason, eventName) =>
    eventName === "PreCompact"
      ? { exitCode: 0, stdout: `${JSON.stringify({ continue: false, stopReason: reason })}\n` }
      : refuseClaudeWire(reason),
};
