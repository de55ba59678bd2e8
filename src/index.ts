/** hookwise: an agent runtime whose centrepiece is its hook system. */
export * from "./agent/index.js";
export * from "./approvals/index.js";
export * from "./config/index.js";
export * from "./context/index.js";
export * from "./errors/index.js";
export * from "./events/index.js";
export * from "./hooks/index.js";
export * from "./loop/index.js";
export {
  LanguageServerError,
  type LanguageServerSpec,
  LanguageServers,
  lspToolset,
  typescriptLanguageServer,
} from "./lsp/index.js";
export * from "./models/index.js";
export * from "./policy/index.js";
export * from "./server/index.js";
export * from "./sessions/index.js";
export * from "./state/index.js";
export type { TelemetryOptions } from "./telemetry/index.js";
export * from "./tools/index.js";
