/**
 * One language server process spoken to over stdio with LSP (vscode-languageserver-protocol).
 * `diagnose(file, text)` opens the document (or sends its new full text), then waits for
 * the server's `textDocument/publishDiagnostics` for it: the first one after the change,
 * plus a quiet period for servers that publish in several rounds (typescript-language-server
 * publishes its syntax check first, then its type check). Diagnoses run one
 * at a time per server, so a late publication of an earlier change is never mistaken for
 * the answer to a later one. A server that dies is started again on the next diagnose.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ProtocolConnection } from "vscode-languageserver-protocol/node";
import { requireOptional } from "../errors/optional-package.js";
import { killGroup, signalGroup, spawnInGroup } from "../tools/process-groups.js";
import type { Diagnostic } from "./diagnostic.js";
import { LanguageServerError } from "./language-server-error.js";
import type { LanguageServerSpec } from "./language-server-spec.js";

export interface DiagnoseOptions {
  /** How long to wait for the diagnostics (default 30 s: a cold TypeScript server takes a few). */
  timeoutMs?: number;
  /**
   * Quiet period after a publication before answering: at least this (default 250 ms), and
   * at least as long as the server took to publish its first round after the change, up to
   * `MAX_SETTLE_MS`. A server that is slow to answer (cold, or on a busy machine) is as slow
   * with its later rounds; a fixed window would answer with the first round alone, and a
   * type error would go unreported.
   */
  settleMs?: number;
}

/** The longest quiet period a slow first round stretches the window to. */
const MAX_SETTLE_MS = 5_000;

type Protocol = typeof import("vscode-languageserver-protocol/node");

interface Started {
  lsp: Protocol;
  child: ChildProcessWithoutNullStreams;
  connection: ProtocolConnection;
  documents: Map<string, number>;
  exited: Promise<void>;
  /** The server's own temporary folder (its TMPDIR), removed when it stops. */
  temp: string;
}

/** The temporary folders of servers still running: removed as hookwise exits, however it exits. */
const temps = new Set<string>();
let exitHook = false;

/**
 * A temporary folder for one server process, as its TMPDIR (TMP and TEMP on Windows):
 * typescript-language-server makes a folder there for each type checker it starts and never
 * removes it, so a folder of the server's own is removed with the server instead.
 */
function serverTemp(): string {
  if (!exitHook) {
    exitHook = true;
    process.on("exit", () => {
      for (const temp of temps) removeTemp(temp);
    });
  }
  const temp = mkdtempSync(join(tmpdir(), "hookwise-lsp-"));
  temps.add(temp);
  return temp;
}

function removeTemp(temp: string): void {
  temps.delete(temp);
  rmSync(temp, { recursive: true, force: true });
}

type Listener = (diagnostics: Diagnostic[]) => void;

export class LanguageServer {
  readonly spec: LanguageServerSpec;
  readonly #root: string;
  #started: Promise<Started> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #stderr = "";
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(spec: LanguageServerSpec, root: string) {
    this.spec = spec;
    this.#root = root;
  }

  /** Diagnostics for `file` (absolute path) with content `text`. */
  diagnose(file: string, text: string, options: DiagnoseOptions = {}): Promise<Diagnostic[]> {
    const run = this.#queue.then(() => this.#diagnose(file, text, options));
    this.#queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const started = await this.#started?.catch(() => undefined);
    this.#started = undefined;
    if (started) await this.#stop(started);
  }

  async #diagnose(file: string, text: string, options: DiagnoseOptions): Promise<Diagnostic[]> {
    const server = await this.#start();
    const uri = pathToFileURL(file).href;
    const timeoutMs = options.timeoutMs ?? 30_000;
    const settleMs = options.settleMs ?? 250;
    let fail: (error: Error) => void = () => {};
    // When the change goes out; the first round's delay sets the quiet period (see settleMs).
    let sentAt = 0;
    const answer = new Promise<Diagnostic[]>((resolve, reject) => {
      let latest: Diagnostic[] | undefined;
      let settle: NodeJS.Timeout | undefined;
      let quietMs = settleMs;
      const listeners = this.#listeners.get(uri) ?? new Set<Listener>();
      this.#listeners.set(uri, listeners);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        clearTimeout(settle);
        listeners.delete(listener);
        if (error) reject(error);
        else resolve(latest ?? []);
      };
      const listener: Listener = (diagnostics) => {
        if (latest === undefined)
          quietMs = Math.max(settleMs, Math.min(performance.now() - sentAt, MAX_SETTLE_MS));
        latest = diagnostics;
        clearTimeout(settle);
        settle = setTimeout(() => finish(), quietMs);
      };
      // At the deadline, the rounds published so far are the answer; none is an error.
      const timer = setTimeout(
        () =>
          finish(
            latest !== undefined
              ? undefined
              : new LanguageServerError({
                  server: this.spec.id,
                  message: `no diagnostics for ${file} within ${timeoutMs} ms`,
                }),
          ),
        timeoutMs,
      );
      listeners.add(listener);
      fail = finish;
      void server.exited.then(() =>
        finish(new LanguageServerError({ server: this.spec.id, message: this.#exitMessage() })),
      );
    });
    const version = server.documents.get(uri);
    sentAt = performance.now();
    try {
      if (version === undefined) {
        server.documents.set(uri, 1);
        await server.connection.sendNotification(server.lsp.DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: this.#languageId(file), version: 1, text },
        });
      } else {
        server.documents.set(uri, version + 1);
        await server.connection.sendNotification(server.lsp.DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: version + 1 },
          contentChanges: [{ text }],
        });
      }
    } catch (error) {
      fail(
        new LanguageServerError({ server: this.spec.id, message: (error as Error).message, cause: error }),
      );
    }
    return answer;
  }

  #languageId(file: string): string {
    const extension = extname(file).toLowerCase();
    return this.spec.languageIds?.[extension] ?? extension.slice(1);
  }

  #exitMessage(): string {
    const tail = this.#stderr.trim().slice(-500);
    return `the server exited${tail ? `; its stderr: ${tail}` : ""}`;
  }

  #start(): Promise<Started> {
    if (this.#closed)
      return Promise.reject(new LanguageServerError({ server: this.spec.id, message: "closed" }));
    this.#started ??= this.#spawn().catch((error) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  async #spawn(): Promise<Started> {
    const lsp = requireOptional<Protocol>("vscode-languageserver-protocol/node", "lsp_diagnose");
    const {
      createProtocolConnection,
      InitializedNotification,
      InitializeRequest,
      PublishDiagnosticsNotification,
      StreamMessageReader,
      StreamMessageWriter,
    } = lsp;
    // A process group of its own, tracked: what the server starts (a type checker's worker)
    // ends with it, and nothing of it outlives hookwise (tools/process-groups.ts).
    const temp = serverTemp();
    const child = spawnInGroup(this.spec.command, this.spec.args, {
      cwd: this.#root,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp },
    }) as ChildProcessWithoutNullStreams;
    child.stderr.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-2_000);
    });
    const exited = new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.once("error", (error) => {
        this.#stderr += `\n${error.message}`;
        resolve();
      });
    });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const started: Started = { lsp, child, connection, documents: new Map(), exited, temp };
    void exited.then(() => {
      connection.dispose();
      // What the server left running goes with it, and then its temporary folder.
      killGroup(child.pid);
      removeTemp(temp);
      // A server that died is started again on the next diagnose (its documents are gone).
      if (this.#started && !this.#closed) this.#started = undefined;
    });
    connection.onNotification(PublishDiagnosticsNotification.type, ({ uri, diagnostics }) => {
      for (const listener of this.#listeners.get(uri) ?? []) listener(diagnostics);
    });
    // Requests from the server: answered neutrally (`workspace/configuration` wants one
    // entry per item); any other gets "method not found", which servers tolerate.
    connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) =>
      (params?.items ?? []).map(() => null),
    );
    for (const method of [
      "client/registerCapability",
      "client/unregisterCapability",
      "window/workDoneProgress/create",
      "window/showMessageRequest",
    ]) {
      connection.onRequest(method, () => null);
    }
    connection.onError(() => {});
    connection.listen();
    const rootUri = pathToFileURL(this.#root).href;
    try {
      await Promise.race([
        connection.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: "workspace" }],
          capabilities: {
            textDocument: { publishDiagnostics: { relatedInformation: false }, synchronization: {} },
            workspace: { configuration: true, workspaceFolders: true },
          },
          initializationOptions: this.spec.initializationOptions ?? null,
        }),
        exited.then(() => {
          throw new Error(this.#exitMessage());
        }),
      ]);
    } catch (error) {
      await this.#stop(started);
      throw new LanguageServerError({
        server: this.spec.id,
        message: `could not start (${[this.spec.command, ...this.spec.args].join(" ")}): ${(error as Error).message}`,
        cause: error,
      });
    }
    await connection.sendNotification(InitializedNotification.type, {});
    return started;
  }

  /** shutdown + exit, then SIGTERM / SIGKILL if the process lingers. */
  async #stop({ lsp, child, connection, exited, temp }: Started): Promise<void> {
    const { ExitNotification, ShutdownRequest } = lsp;
    if (child.exitCode === null && child.signalCode === null) {
      const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
      try {
        await Promise.race([connection.sendRequest(ShutdownRequest.type), wait(2_000)]);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // The connection may already be gone; the signals below still end the process.
      }
      await Promise.race([exited, wait(2_000)]);
      if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid, "SIGTERM");
      await Promise.race([exited, wait(2_000)]);
      if (child.exitCode === null && child.signalCode === null) killGroup(child.pid);
      await exited;
    }
    // What the server left running in its group goes with it, and then its temporary folder.
    killGroup(child.pid);
    connection.dispose();
    removeTemp(temp);
  }
}
