/**
 * The gateway tests' set-up: a temp copy of the fixture config (its upstream MCP server
 * named by absolute path), and real MCP clients — the SDK's `Client` over stdio spawning
 * `hookwise mcp` (as a user's MCP client does), or over Streamable HTTP against `--http`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURES = join(import.meta.dirname, "fixtures");
/** tsx by absolute URL: the gateway runs in a temp folder, where a bare `tsx` does not resolve. */
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
export const CLI = ["--import", TSX, join(ROOT, "src/cli/main.ts")];

export interface GatewayDir {
  dir: string;
  config: string;
  out: string;
  cleanup(): void;
}

/** A temp folder holding the fixture config and tools; `out` is where the tools write. */
export function gatewayDir(edit: (yaml: string) => string = (yaml) => yaml): GatewayDir {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-gateway-"));
  cpSync(join(FIXTURES, "tools.mjs"), join(dir, "tools.mjs"));
  const upstream = join(ROOT, "test/fixtures/mcp/stdio-server.mjs");
  const yaml = readFileSync(join(FIXTURES, "gateway.yaml"), "utf8").replace(
    "../../fixtures/mcp/stdio-server.mjs",
    upstream,
  );
  const config = join(dir, "gateway.yaml");
  writeFileSync(config, edit(yaml));
  return {
    dir,
    config,
    out: join(dir, "out"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface StdioGatewayClient {
  client: Client;
  transport: StdioClientTransport;
  /** What the gateway wrote to stderr so far. */
  stderr(): string;
  /** The hookwise session id the gateway announced (after the first call). */
  sessionId(): string | undefined;
}

/** `hookwise mcp <config>` spawned by the SDK's stdio client, connected. */
export async function stdioGateway(
  where: GatewayDir,
  options: { capabilities?: ClientOptions["capabilities"]; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<StdioGatewayClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "mcp", where.config, ...(options.args ?? [])],
    cwd: where.dir,
    env: { ...(process.env as Record<string, string>), GATEWAY_OUT_DIR: where.out, ...options.env } as Record<
      string,
      string
    >,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client(
    { name: "gateway-test", version: "1.0.0" },
    options.capabilities ? { capabilities: options.capabilities } : {},
  );
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    sessionId: () => /session (\S+) \(client/.exec(stderr)?.[1],
  };
}

/** `hookwise mcp <config> --http --port 0 [args…]`, until it prints its URL. */
export async function httpGateway(
  where: GatewayDir,
  env: NodeJS.ProcessEnv = {},
  args: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess; stderr(): string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [...CLI, "mcp", where.config, "--http", "--port", "0", ...args], {
    cwd: where.dir,
    env: { ...process.env, GATEWAY_OUT_DIR: where.out, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 30 s; stderr: ${stderr}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const found = /tools at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        done(found[1]!);
      }
    });
    child.once("exit", () => fail(new Error(`exited before listening; stderr: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The text of a tool result's first part. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? "").join("\n");
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it is true, or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 10_000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
