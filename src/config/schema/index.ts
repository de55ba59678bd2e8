/**
 * The config's shape: the zod schema every file is read against (`schema.ts`, the server's
 * section in `server-schema.ts`), the JSON Schema `hookwise schema` prints, and the lazy
 * schema of a condition's or action's fields.
 */
export { configJsonSchema } from "./json-schema.js";
export { withLazySchema } from "./lazy-schema.js";
export {
  type AgentEntry,
  type ConfigFile,
  configSchema,
  type HookEntry,
  hookEntrySchema,
  type ManifestHook,
  type ModelEntry,
  manifestHookSchema,
  type PolicyEntry,
  policyEntrySchema,
  type ToolsetEntry,
} from "./schema.js";
export type { ServerConfig } from "./server-schema.js";
