/**
 * The language servers of one workspace, started once on first use and reused (one process
 * per server spec), closed together. A file goes to the first spec that lists its
 * extension; the default spec is typescript-language-server.
 */
import { extname, resolve } from "node:path";
import { trackResource } from "../tools/open-resources.js";
import type { Diagnostic } from "./diagnostic.js";
import type { DiagnoseOptions, LanguageServer } from "./language-server.js";
import { languageServerModule } from "./language-server.part.js";
import { LanguageServerError } from "./language-server-error.js";
import { type LanguageServerSpec, typescriptLanguageServer } from "./language-server-spec.js";

export interface LanguageServersOptions {
  /** The workspace root (rootUri); relative file paths resolve against it. */
  root: string;
  /** Tried before the default (typescript-language-server). */
  servers?: readonly LanguageServerSpec[];
}

export class LanguageServers {
  readonly root: string;
  readonly #specs: readonly LanguageServerSpec[];
  readonly #running = new Map<string, LanguageServer>();
  #untrack: (() => void) | undefined;
  #closed = false;

  constructor(options: LanguageServersOptions) {
    this.root = resolve(options.root);
    this.#specs = options.servers ?? [];
  }

  /** The spec that handles `file`, or undefined (the default is resolved only when needed). */
  specFor(file: string, extra: readonly LanguageServerSpec[] = []): LanguageServerSpec | undefined {
    const extension = extname(file).toLowerCase();
    const explicit = [...extra, ...this.#specs].find((spec) => spec.extensions.includes(extension));
    if (explicit) return explicit;
    return [".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"].includes(extension)
      ? typescriptLanguageServer()
      : undefined;
  }

  /** Diagnostics for `file` with `text`; undefined when no server handles the file. */
  async diagnose(
    file: string,
    text: string,
    options: DiagnoseOptions & { server?: LanguageServerSpec } = {},
  ): Promise<{ server: string; diagnostics: Diagnostic[] } | undefined> {
    const absolute = resolve(this.root, file);
    const spec = this.specFor(absolute, options.server ? [options.server] : []);
    if (!spec) return undefined;
    const server = this.#serverFor(spec);
    return { server: spec.id, diagnostics: await server.diagnose(absolute, text, options) };
  }

  /** How many servers are running (tests check reuse). */
  get size(): number {
    return this.#running.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#untrack?.();
    this.#untrack = undefined;
    const servers = [...this.#running.values()];
    this.#running.clear();
    await Promise.allSettled(servers.map((server) => server.close()));
  }

  #serverFor(spec: LanguageServerSpec): LanguageServer {
    if (this.#closed) throw new LanguageServerError({ server: spec.id, message: "the pool is closed" });
    let server = this.#running.get(spec.id);
    if (!server) {
      server = new (languageServerModule().LanguageServer)(spec, this.root);
      this.#running.set(spec.id, server);
      this.#untrack ??= trackResource(this);
    }
    return server;
  }
}
