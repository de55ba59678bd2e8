/**
 * Spawns a real harness CLI in its own process group with a given environment, collects its
 * output, and kills the whole group on timeout. Every group still alive is killed by
 * `killAllHarnesses()` (call it in afterEach) and when the test process exits, so a failed test
 * never leaves a harness (or the shell commands and hooks it started) running.
 */
import { spawn } from "node:child_process";

export interface HarnessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the run was killed for running past its timeout. */
  readonly timedOut: boolean;
  readonly durationMs: number;
}

export interface SpawnHarnessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the child (nothing is inherited beyond it). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Text written to the child's stdin, which is then closed (closed at once when absent). */
  readonly stdin?: string;
}

const maxOutput = 4 * 1024 * 1024;
const live = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
  live.delete(pid);
}

/** Kills every harness process group this test process started that is still alive. */
export function killAllHarnesses(): void {
  for (const pid of [...live]) killGroup(pid);
}

process.once("exit", killAllHarnesses);

/** Runs a harness to its end (or its timeout) and returns what it printed. */
export function spawnHarness(options: SpawnHarnessOptions): Promise<HarnessResult> {
  const started = Date.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...options.env },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid !== undefined) live.add(pid);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    if (stdout.length < maxOutput) stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < maxOutput) stderr += chunk.toString("utf8");
  });
  child.stdin.on("error", () => {}); // a harness that never reads its stdin
  child.stdin.end(options.stdin ?? "");
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (pid !== undefined) killGroup(pid);
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      clearTimeout(timer);
      if (pid !== undefined) killGroup(pid);
      reject(error);
    });
    // The harness is done: anything it left in its group (a shell, a hook) goes with it, which
    // also closes the pipes such a leftover would hold open.
    child.once("exit", () => {
      clearTimeout(timer);
      if (pid !== undefined) killGroup(pid);
    });
    child.once("close", (exitCode, signal) => {
      resolve({ exitCode, signal, stdout, stderr, timedOut, durationMs: Date.now() - started });
    });
  });
}
