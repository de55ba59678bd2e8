/**
 * Runs the Bash tool's command as Claude Code does: `bash -c <command>`, the model's
 * command being the shell command (that is the tool's contract; policies and hooks guard
 * it, nothing is templated into it). The process leads its own process group: a timeout,
 * an abort, or this process exiting kills the group, so nothing it started outlives it.
 * Output is collected up to a cap per stream; what is past it is counted, not kept.
 */

export interface BashRun {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes of stdout / stderr dropped past the cap. */
  stdoutDropped: number;
  stderrDropped: number;
  timedOut: boolean;
  aborted: boolean;
}

export interface RunBashOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept of each stream. */
  maxOutput: number;
}

/** Process groups still running, killed if this process exits first. */
const running = new Set<number>();
let exitHook = false;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
}

function watchExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid);
  });
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push(chunk: Buffer) {
      const room = Math.max(0, max - size);
      if (chunk.length > room) dropped += chunk.length - room;
      if (room === 0) return;
      const kept = chunk.subarray(0, room);
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    dropped: () => dropped,
  };
}

export function runBash(command: string, options: RunBashOptions): Promise<BashRun> {
  watchExit();
  return new Promise((resolve, reject) => {
    const stdout = collector(options.maxOutput);
    const stderr = collector(options.maxOutput);
    let timedOut = false;
    let aborted = false;
    // node:child_process loads at the first spawn.
    const child = process.getBuiltinModule("node:child_process").spawn("bash", ["-c", command], {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid !== undefined) running.add(child.pid);
    const stop = () => killGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (child.pid !== undefined) running.delete(child.pid);
    };
    child.stdout.on("data", stdout.push);
    child.stderr.on("data", stderr.push);
    child.on("error", (error) => {
      done();
      reject(error);
    });
    child.on("exit", () => {
      // What the command left running in its group (a background job) goes with it; its
      // pipes would otherwise hold the call open.
      stop();
    });
    child.on("close", (code, signal) => {
      done();
      resolve({
        exitCode: code,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutDropped: stdout.dropped(),
        stderrDropped: stderr.dropped(),
        timedOut,
        aborted,
      });
    });
  });
}
