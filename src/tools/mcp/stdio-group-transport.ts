/**
 * The stdio transport of an MCP server, as the SDK's own (newline-delimited JSON-RPC over
 * the server's stdin and stdout, the environment the SDK gives a server plus the spec's
 * `env`), but the server runs in a process group of its own (tools/process-groups.ts):
 * closing the connection ends the server and everything it started — a helper process, a
 * `sleep` a tool left behind — and what is still running when hookwise exits is killed.
 * The SDK's transport ends the server alone, and its children outlive it.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { PassThrough } from "node:stream";
import type { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { killGroup, signalGroup, spawnInGroup } from "../process-groups.js";

/** What the transport takes of the SDK (loaded with it: the SDK is an optional package). */
export interface StdioCodec {
  ReadBuffer: new () => ReadBuffer;
  serializeMessage(message: JSONRPCMessage): string;
  getDefaultEnvironment(): Record<string, string>;
}

export interface StdioServerParameters {
  command: string;
  args: readonly string[];
  env?: Readonly<Record<string, string>> | undefined;
  cwd?: string | undefined;
}

/** How long a server has to exit once its stdin is closed, then once it is sent SIGTERM. */
const GRACE_MS = 2_000;

export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable before `start` (early output is not lost). */
  readonly stderr = new PassThrough();
  readonly #codec: StdioCodec;
  readonly #server: StdioServerParameters;
  readonly #buffer: ReadBuffer;
  #process: ChildProcessWithoutNullStreams | undefined;

  constructor(server: StdioServerParameters, codec: StdioCodec) {
    this.#server = server;
    this.#codec = codec;
    this.#buffer = new codec.ReadBuffer();
  }

  start(): Promise<void> {
    if (this.#process) throw new Error("the MCP server is started already");
    return new Promise((resolve, reject) => {
      const child = spawnInGroup(this.#server.command, this.#server.args, {
        env: { ...this.#codec.getDefaultEnvironment(), ...this.#server.env },
        stdio: ["pipe", "pipe", "pipe"],
        ...(this.#server.cwd ? { cwd: this.#server.cwd } : {}),
      }) as ChildProcessWithoutNullStreams;
      this.#process = child;
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => resolve());
      child.on("close", () => {
        // The server is gone; whatever it started goes with it.
        killGroup(child.pid);
        if (this.#process === child) this.#process = undefined;
        this.onclose?.();
      });
      child.stdin.on("error", (error) => this.onerror?.(error));
      child.stdout.on("error", (error) => this.onerror?.(error));
      child.stdout.on("data", (chunk: Buffer) => {
        try {
          this.#buffer.append(chunk);
          this.#read();
        } catch (error) {
          this.onerror?.(error as Error);
          this.close().catch(() => {});
        }
      });
      child.stderr.pipe(this.stderr);
    });
  }

  #read(): void {
    for (;;) {
      try {
        const message = this.#buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#process?.stdin;
      if (!stdin) return reject(new Error("Not connected"));
      if (stdin.write(this.#codec.serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, to the whole group; resolves once it is gone. */
  async close(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once("close", () => resolve());
      });
      const within = (ms: number) =>
        Promise.race([
          closed.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
        ]);
      try {
        child.stdin.end();
      } catch {
        // Closed already.
      }
      if (!(await within(GRACE_MS))) {
        signalGroup(child.pid, "SIGTERM");
        if (!(await within(GRACE_MS))) killGroup(child.pid);
      }
      // The server exited: what it left running in its group does not outlive the connection.
      killGroup(child.pid);
    }
    this.#buffer.clear();
  }
}
