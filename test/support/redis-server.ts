/**
 * A real `redis-server` for tests: on 127.0.0.1, a free port, a temp folder, no
 * persistence; stopped (and its folder removed) by `stop()`.
 *
 * Where redis-server is not installed, `redisAvailable` is false and tests that need it are
 * skipped with a message saying so — except in CI (`HOOKWISE_CI=1`), where its absence is
 * a failure, never a silent skip.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });

/** Whether redis-server can be started on this machine. */
export const redisAvailable = probe.status === 0;

if (!redisAvailable) {
  const message =
    "redis-server is not installed: the Redis store tests are skipped (install the redis-server package to run them)";
  if (process.env.HOOKWISE_CI === "1") throw new Error(`${message}; HOOKWISE_CI=1 requires them`);
  console.warn(`[hookwise tests] ${message}`);
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server's process (SIGSTOP) without closing its port: connections are still
   * accepted by the system, and nothing is answered — a Redis that hangs. `thaw()` resumes it.
   */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether a Redis answers on `port` (with a password required, its refusal of PING answers too). */
function ping(port: number, guarded = false): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith(guarded ? "-NOAUTH" : "+PONG")));
  });
}

async function startOn(port: number, dir: string, password?: string): Promise<ChildProcess | undefined> {
  const child = spawn(
    "redis-server",
    [
      ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      ...(password === undefined ? [] : ["--requirepass", password]),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return undefined; // the port was taken meanwhile: try another
    if (await ping(port, password !== undefined)) return child;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not answer on port ${port} within 10 s:\n${output}`);
}

/** A server on a free port; with `password`, one that requires it (`requirepass`). */
export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  if (!redisAvailable) throw new Error("redis-server is not installed");
  const dir = mkdtempSync(join(tmpdir(), "hookwise-redis-"));
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = await startOn(port, dir, options.password);
    if (!child) continue;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      freeze: () => child.kill("SIGSTOP"),
      thaw: () => child.kill("SIGCONT"),
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGCONT");
          const exited = once(child, "exit");
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error("redis-server: no free port after 5 attempts");
}
