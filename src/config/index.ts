export {
  type ClaudeFailure,
  type ClaudeHandlerInfo,
  ClaudeHookError,
  type ClaudeHookSet,
  type ClaudeHooksOptions,
  type ClaudeSettings,
  type ClaudeSettingsSource,
  claudeHooks,
} from "./claude-hooks/index.js";
export {
  ConfigError,
  ConfigFileError,
  type ConfigIssue,
  ConfigReferenceError,
  formatIssue,
} from "./config-error.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig, readConfig } from "./load-config.js";
export { type Notification, NotificationBus } from "./notification-bus.js";
export { validateConfigText } from "./validate-config.js";
