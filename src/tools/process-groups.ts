/**
 * Every child process hookwise starts — a `shell` action's program, a Claude Code hook's
 * command, an MCP server, a language server — runs in a process group of its own, started
 * here and tracked here until nothing of it is left, so that what it starts in turn (a
 * grandchild) can be ended with it. A group is ended when its owner is done with it (a
 * timeout, an abort, a closed server), and every group still tracked is killed when the
 * process exits, whatever the way: the end of a command, `process.exit` after Ctrl-C,
 * SIGTERM or SIGHUP (the CLI turns those into an exit), an uncaught error.
 *
 * A group of its own also means a terminal's Ctrl-C reaches hookwise only, which then ends
 * the groups itself: a child never sees half a shutdown.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";

const GROUPS = process.platform !== "win32";

/** Leaders of the groups that may still have members. */
const tracked = new Set<number>();
let exitHook = false;

/** Signals the whole group led by `pid` (on Windows, the process only); false when nothing was there. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(GROUPS ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Kills the group led by `pid` at once (SIGKILL), and stops tracking it. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  signalGroup(pid, "SIGKILL");
  tracked.delete(pid);
}

/** Kills every tracked group; what the process does as it exits. */
export function killAllGroups(): void {
  for (const pid of [...tracked]) killGroup(pid);
}

/** How many groups may still have members (tests check that nothing is left). */
export function trackedGroupCount(): number {
  return tracked.size;
}

/**
 * Starts `command` (never through a shell) in a new process group, tracked until the group
 * is empty or killed. The leader's exit does not end the tracking while members remain:
 * what it left behind still dies with hookwise.
 */
export function spawnInGroup(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, "detached" | "shell">,
): ChildProcess {
  if (!exitHook) {
    exitHook = true;
    process.on("exit", killAllGroups);
  }
  // node:child_process loads at the first spawn (it pulls in node:net, which start-up does not need).
  const child = process.getBuiltinModule("node:child_process").spawn(command, [...args], {
    ...options,
    shell: false,
    detached: GROUPS,
    windowsHide: true,
  });
  const pid = child.pid;
  if (pid !== undefined) {
    tracked.add(pid);
    child.once("exit", () => {
      if (!signalGroup(pid, 0)) tracked.delete(pid);
    });
  }
  return child;
}
