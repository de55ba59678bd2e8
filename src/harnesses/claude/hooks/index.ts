export { ClaudeHookError } from "./claude-hook-error.js";
export { type ClaudeHookSet, type ClaudeHooksOptions, CONTEXT_HOOK, claudeHooks } from "./claude-hooks.js";
export type { ClaudeHandlerInfo } from "./compile-claude-handler.js";
export { CLAUDE_EVENTS } from "./events/index.js";
export type { ClaudeFailure, ClaudeSettings, ClaudeSettingsSource } from "./settings/claude-handler-spec.js";
export { type ClaudeSettingsRead, readClaudeSettings } from "./settings/read-claude-settings.js";
