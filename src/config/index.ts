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
