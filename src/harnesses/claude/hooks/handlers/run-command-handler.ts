/**
 * Runs a Claude Code command handler as Claude Code does: the user's own command line,
 * untouched, through `/bin/sh -c` (nothing of the event is ever templated into it: the
 * event JSON goes to stdin), or the exec form `command` + `args` with no shell. The process
 * leads its own process group, so a timeout or an abort kills it and everything it started
 * (no orphan keeps running). When the command exits, what it left running in its group
 * may still hold its output open: its answer is read when the output ends, or a moment after
 * the exit at the latest, and then what still holds it is killed. Output is capped. Never throws:
 * `error` says why it could not start.
 */
import { killGroup, spawnInGroup } from "../../../../tools/process-groups.js";

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** It printed more on stdout than is kept (its answer cannot be read whole). */
  stdoutTruncated?: boolean;
  /** Why it could not start (ENOENT…). */
  error?: string;
}

export interface RunCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The JSON written to stdin. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept of stdout and of stderr each (default 1 MiB). */
  maxOutput?: number;
}

const SHELLS = { sh: "/bin/sh", bash: "bash" } as const;

/** How long after the command exits its output may still arrive (held open by leftovers). */
const DRAIN_MS = 250;

/** Collects a stream up to `max` bytes (what a hook prints past that is dropped, and noted). */
function collector(max: number): { push(chunk: Buffer): void; text(): string; readonly truncated: boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    get truncated() {
      return truncated;
    },
    push(chunk) {
      if (size + chunk.length > max) truncated = true;
      if (size >= max) return;
      const kept = chunk.subarray(0, max - size);
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

export function runCommandHandler(
  handler: { command: string; args?: readonly string[] | undefined; shell?: "sh" | "bash" },
  options: RunCommandOptions,
): Promise<CommandResult> {
  const [program, argv] =
    handler.args === undefined
      ? [SHELLS[handler.shell ?? "sh"], ["-c", handler.command]]
      : [handler.command, [...handler.args]];
  return new Promise((resolve) => {
    const max = options.maxOutput ?? 1024 * 1024;
    const stdout = collector(max);
    const stderr = collector(max);
    let timedOut = false;
    let settled = false;
    let drain: ReturnType<typeof setTimeout> | undefined;
    // A group of its own, tracked: a timeout or an abort ends everything the command started,
    // and what it leaves running dies with hookwise (tools/process-groups.ts).
    const child = spawnInGroup(program, argv, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    }) as import("node:child_process").ChildProcessWithoutNullStreams;
    const finish = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const stop = () => killGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => stop();
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", stdout.push);
    child.stderr.on("data", stderr.push);
    // A script that exits without reading stdin closes the pipe under our feet: not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
    child.on("error", (error) => {
      if (child.pid === undefined)
        finish({
          exitCode: null,
          signal: null,
          stdout: "",
          stderr: "",
          timedOut: false,
          error: error.message,
        });
    });
    const result = (code: number | null, signal: string | null): CommandResult => ({
      exitCode: code,
      signal,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut,
      ...(stdout.truncated ? { stdoutTruncated: true } : {}),
    });
    // The command is over, but what it left running holds the pipes: read what came, kill
    // the leftovers, do not wait for them.
    const leave = (code: number | null, signal: string | null) => {
      stop();
      child.stdout.destroy();
      child.stderr.destroy();
      finish(result(code, signal));
    };
    child.on("exit", (code, signal) => {
      if (timedOut || options.signal?.aborted) leave(code, signal);
      // Exited on its own: what it printed is in the pipes; let it arrive (`close`).
      else drain = setTimeout(() => leave(code, signal), DRAIN_MS);
    });
    child.on("close", (code, signal) => {
      // Whatever the leader left behind after a timeout or an abort goes with it.
      if (timedOut || options.signal?.aborted) stop();
      finish(result(code, signal));
    });
  });
}
