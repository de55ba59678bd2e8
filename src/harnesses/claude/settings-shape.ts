/**
 * The hooks block Claude Code reads from its settings files and Codex CLI from
 * `.codex/hooks.json`: `hooks.<Event>` is a list of groups `{ matcher?, hooks: [{ type:
 * "command", command, timeout? }] }`; tool events take a matcher (`*`: every tool).
 */
import type { HarnessSettings } from "../types.js";

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

export function claudeStyleGroup(command: string, event: string): Record<string, unknown> {
  return {
    ...(TOOL_EVENTS.has(event) ? { matcher: "*" } : {}),
    hooks: [{ type: "command", command }],
  };
}

export function claudeStyleCommands(group: unknown): string[] {
  const hooks = (group as { hooks?: unknown } | null)?.hooks;
  if (!Array.isArray(hooks)) return [];
  return hooks
    .map((hook) => (hook as { command?: unknown } | null)?.command)
    .filter((command): command is string => typeof command === "string");
}

export type ClaudeStyleSettings = Pick<HarnessSettings, "group" | "commandsOf">;
