// The config compiler and the Claude Code settings compiler load at their first use
// (config-functions.ts, claude-hooks-function.ts): what is exported here comes from the
// modules that define it, never a folder's index, which would load them all.

export { ClaudeHookError } from "../harnesses/claude/hooks/claude-hook-error.js";
export type { ClaudeHookSet, ClaudeHooksOptions } from "../harnesses/claude/hooks/claude-hooks.js";
export { claudeHooks } from "../harnesses/claude/hooks/claude-hooks-function.js";
export type { ClaudeHandlerInfo } from "../harnesses/claude/hooks/compile-claude-handler.js";
export type {
  ClaudeFailure,
  ClaudeSettings,
  ClaudeSettingsSource,
} from "../harnesses/claude/hooks/settings/claude-handler-spec.js";
export { loadConfig, readConfig, validateConfigText } from "./config-functions.js";
export type { LoadConfigOptions, LoadedConfig } from "./load-config.js";
export { type Notification, NotificationBus } from "./notification-bus.js";
export {
  ConfigError,
  ConfigFileError,
  type ConfigIssue,
  ConfigReferenceError,
  formatIssue,
} from "./source/config-error.js";
