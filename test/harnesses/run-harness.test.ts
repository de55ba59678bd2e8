/**
 * The harness runner kills the whole process group it started — the harness and anything the
 * harness left running (a shell, a hook) — on timeout and when the harness exits.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAllHarnesses, spawnHarness } from "../support/harnesses/run-harness.js";

const roots: string[] = [];
afterEach(() => {
  killAllHarnesses();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function scratch(): string {
  const root = mkdtempSync(join(tmpdir(), "hookwise-run-harness-"));
  roots.push(root);
  return root;
}

describe("spawnHarness", () => {
  it("kills the process group on timeout, children included", async () => {
    const root = scratch();
    const pidFile = join(root, "child.pid");
    const result = await spawnHarness({
      command: "/bin/sh",
      args: ["-c", `sleep 300 & echo $! > ${pidFile}; wait`],
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: 500,
    });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    const child = Number(readFileSync(pidFile, "utf8").trim());
    expect(await waitGone(child)).toBe(true);
  });

  it("kills what the harness left running once it exits, and returns its output and exit code", async () => {
    const root = scratch();
    const pidFile = join(root, "child.pid");
    const result = await spawnHarness({
      command: "/bin/sh",
      args: ["-c", `sleep 300 & echo $! > ${pidFile}; echo out; echo err >&2; exit 3`],
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false, stdout: "out\n", stderr: "err\n" });
    expect(existsSync(pidFile)).toBe(true);
    expect(await waitGone(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
  });
});
