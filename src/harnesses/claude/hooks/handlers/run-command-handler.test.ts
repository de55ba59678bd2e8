import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCommandHandler } from "./run-command-handler.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-claude-run-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (extra: Partial<Parameters<typeof runCommandHandler>[1]> = {}) => ({
  cwd: dir,
  env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
  input: "{}",
  timeoutMs: 10_000,
  ...extra,
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true;
  }
}

async function waitFor(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("running a command handler", () => {
  it("runs the user's command line with sh -c, the event on stdin, CLAUDE_PROJECT_DIR set, in the project", async () => {
    const result = await runCommandHandler(
      { command: 'cat > event.json; printf "%s|%s" "$CLAUDE_PROJECT_DIR" "$(pwd)"; echo oops >&2; exit 3' },
      options({ input: '{"hook_event_name":"Stop"}' }),
    );
    expect(result).toMatchObject({ exitCode: 3, stdout: `${dir}|${dir}`, stderr: "oops\n", timedOut: false });
    expect(readFileSync(join(dir, "event.json"), "utf8")).toBe('{"hook_event_name":"Stop"}');
  });

  it("never puts event data into the command: a hostile argument stays data on stdin", async () => {
    const hostile = JSON.stringify({ tool_input: { command: '"; touch PWNED; echo "' } });
    const result = await runCommandHandler({ command: "cat > got.json" }, options({ input: hostile }));
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(dir, "PWNED"))).toBe(false);
    expect(readFileSync(join(dir, "got.json"), "utf8")).toBe(hostile);
  });

  it("the exec form (command + args) runs without a shell: nothing is expanded", async () => {
    const result = await runCommandHandler({ command: "printf", args: ["%s", "$HOME;$(id)"] }, options());
    expect(result.stdout).toBe("$HOME;$(id)");
  });

  it("a command that cannot start says why", async () => {
    const result = await runCommandHandler({ command: "/no/such/program", args: [] }, options());
    expect(result.error).toMatch(/ENOENT/);
  });

  it("a script that exits without reading stdin is fine", async () => {
    const big = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    const result = await runCommandHandler({ command: "exit 0" }, options({ input: big }));
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it("past its timeout the whole process group is killed: no orphan keeps running", async () => {
    const started = Date.now();
    const result = await runCommandHandler(
      { command: "sleep 30 & echo $! > helper.pid; echo $$ > shell.pid; sleep 30" },
      options({ timeoutMs: 500 }),
    );
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    const helper = Number(readFileSync(join(dir, "helper.pid"), "utf8"));
    const shell = Number(readFileSync(join(dir, "shell.pid"), "utf8"));
    await waitFor(() => !alive(helper) && !alive(shell));
  });

  it("an aborted run kills it too", async () => {
    const controller = new AbortController();
    const running = runCommandHandler(
      { command: "sleep 30 & echo $! > helper.pid; sleep 30" },
      options({ signal: controller.signal }),
    );
    await waitFor(
      () =>
        existsSync(join(dir, "helper.pid")) && readFileSync(join(dir, "helper.pid"), "utf8").trim() !== "",
    );
    controller.abort();
    const result = await running;
    expect(result.exitCode).toBeNull();
    await waitFor(() => !alive(Number(readFileSync(join(dir, "helper.pid"), "utf8"))));
  });

  it("a command that exits leaving a child on its output is answered at its exit, not its timeout", async () => {
    const started = Date.now();
    const result = await runCommandHandler(
      {
        command:
          'cat >/dev/null; sleep 30 & echo $! > helper.pid; echo \'{"hookSpecificOutput":{"permissionDecision":"deny"}}\'; exit 0',
      },
      options({ timeoutMs: 5_000 }),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({
      exitCode: 0,
      timedOut: false,
      stdout: '{"hookSpecificOutput":{"permissionDecision":"deny"}}\n',
    });
    // The child that held the output goes: the hook is over.
    await waitFor(() => !alive(Number(readFileSync(join(dir, "helper.pid"), "utf8"))));
  });

  it("output past the cap is noted, so an answer cut short is not read as a whole one", async () => {
    const result = await runCommandHandler(
      { command: "head -c 5000 /dev/zero | tr '\\0' x" },
      options({ maxOutput: 1000 }),
    );
    expect(result.stdout).toHaveLength(1000);
    expect(result.stdoutTruncated).toBe(true);
    const whole = await runCommandHandler({ command: "printf abc" }, options({ maxOutput: 1000 }));
    expect(whole.stdoutTruncated).toBeUndefined();
  });
});
