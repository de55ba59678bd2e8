/**
 * Which language server handles which files. The default is typescript-language-server
 * (a dependency of hookwise) for .ts/.tsx/.js/.jsx/.mts/.cts/.mjs/.cjs, run with this
 * Node and pointed at the `typescript` package hookwise resolves, so it works with nothing
 * else installed. Any other stdio language server can be configured.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { HookwiseError } from "../errors/hookwise-error.js";

export interface LanguageServerSpec {
  /** Identifies the server (one process per id per pool). */
  id: string;
  command: string;
  args: readonly string[];
  /** File extensions it handles, with the dot: [".ts", ".js"]. */
  extensions: readonly string[];
  /** The LSP languageId of a file, by extension (default: the extension without its dot). */
  languageIds?: Readonly<Record<string, string>>;
  initializationOptions?: unknown;
}

const TYPESCRIPT_LANGUAGES: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
};

let typescriptSpec: LanguageServerSpec | undefined;

/** typescript-language-server over stdio, resolved from hookwise's own dependencies. */
export function typescriptLanguageServer(): LanguageServerSpec {
  if (typescriptSpec) return typescriptSpec;
  // Not named `require`: built as CommonJS (`hookwise hook`), that name is the module's own.
  const resolver = createRequire(import.meta.url);
  let cli: string;
  let tsserver: string;
  try {
    cli = join(dirname(resolver.resolve("typescript-language-server/package.json")), "lib", "cli.mjs");
  } catch {
    throw new HookwiseError(
      "lsp_diagnose: typescript-language-server is not installed (npm install typescript-language-server)",
    );
  }
  try {
    tsserver = resolver.resolve("typescript/lib/tsserver.js");
  } catch {
    throw new HookwiseError("lsp_diagnose: the typescript package is not installed (npm install typescript)");
  }
  typescriptSpec = {
    id: "typescript-language-server",
    command: process.execPath,
    args: [cli, "--stdio"],
    extensions: Object.keys(TYPESCRIPT_LANGUAGES),
    languageIds: TYPESCRIPT_LANGUAGES,
    initializationOptions: { tsserver: { path: tsserver } },
  };
  return typescriptSpec;
}
