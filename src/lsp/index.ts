export { atLeast, formatDiagnostic, formatDiagnostics, type SeverityName } from "./format-diagnostics.js";
export { type DiagnoseOptions, LanguageServer } from "./language-server.js";
export { LanguageServerError } from "./language-server-error.js";
export { type LanguageServerSpec, typescriptLanguageServer } from "./language-server-spec.js";
export { LanguageServers, type LanguageServersOptions } from "./language-servers.js";
export { lspToolset } from "./lsp-toolset.js";
