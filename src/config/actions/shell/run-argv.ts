/**
 * Runs argv without a shell (`shell: false`), in its own process group so a timeout ends
 * the program and everything it started; output (stdout and stderr interleaved) is capped.
 * Never throws: a program that cannot start is a result with `error`. The group is tracked
 * (tools/process-groups.ts): what the program leaves running dies with hookwise.
 */
import { killGroup, signalGroup, spawnInGroup } from "../../../tools/process-groups.js";

export interface ArgvResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  output: string;
  truncated: boolean;
  /** Why it could not start (ENOENT…). */
  error?: string;
}

export interface RunArgvOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutput: number;
  signal?: AbortSignal;
}

export function runArgv(argv: readonly string[], options: RunArgvOptions): Promise<ArgvResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    let startError: string | undefined;
    const child = spawnInGroup(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    }) as import("node:child_process").ChildProcessByStdio<
      null,
      import("node:stream").Readable,
      import("node:stream").Readable
    >;
    const collect = (chunk: Buffer) => {
      if (size >= options.maxOutput) {
        truncated = true;
        return;
      }
      const room = options.maxOutput - size;
      if (chunk.length > room) truncated = true;
      const kept = chunk.subarray(0, room);
      chunks.push(kept);
      size += kept.length;
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let killer: NodeJS.Timeout | undefined;
    // SIGTERM to the group, SIGKILL a second later if anything is left.
    const stop = () => {
      signalGroup(child.pid, "SIGTERM");
      killer = setTimeout(() => killGroup(child.pid), 1_000);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const settle = (result: ArgvResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    child.on("error", (error) => {
      startError = error.message;
      // Never spawned: no "close" is owed.
      if (child.pid === undefined) {
        settle({
          exitCode: null,
          signal: null,
          timedOut: false,
          output: "",
          truncated: false,
          error: startError,
        });
      }
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // The leader is gone; make sure no member of its group outlives it after a timeout or
      // an abort (the run's, or the hook's own timeout).
      if (timedOut || aborted) killGroup(child.pid);
      const result: ArgvResult = {
        exitCode: code,
        signal,
        timedOut,
        output: Buffer.concat(chunks).toString("utf8"),
        truncated,
      };
      if (startError !== undefined) result.error = startError;
      settle(result);
    });
  });
}
