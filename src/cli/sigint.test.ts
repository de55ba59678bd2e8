/**
 * Ctrl-C during `hookwise run`: the CLI closes what it opened (the MCP server of the
 * config) and exits 130. A real child process, a real MCP server, a real SIGINT.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const MCP_SERVER = fileURLToPath(new URL("../../test/fixtures/mcp/stdio-server.mjs", import.meta.url));

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it("SIGINT closes the config's MCP server and exits 130", async () => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-sigint-"));
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `models: { default: "scripted:./script.yaml" }
runtime: { state: { kind: memory } }
toolsets:
  fixture: { kind: mcp, command: "${process.execPath}", args: ["${MCP_SERVER}"] }
`,
  );
  writeFileSync(
    join(dir, "script.yaml"),
    `- tool_calls: [{ name: fixture_pid, args: {} }]
- delay_ms: 60000
  text: never reached
`,
  );
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "run", join(dir, "hookwise.yaml"), "--prompt", "go"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
  const serverPid = await new Promise<number>((resolvePid, reject) => {
    const timer = setTimeout(() => reject(new Error(`no pid printed; stderr: ${stderr}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const found = /◀ fixture_pid: (\d+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolvePid(Number(found[1]));
      }
    });
  });
  expect(alive(serverPid)).toBe(true);
  child.kill("SIGINT");
  expect(await exited).toBe(130);
  expect(stderr).toContain("hookwise: interrupted; closing servers");
  for (let tries = 0; tries < 100 && alive(serverPid); tries++) await new Promise((r) => setTimeout(r, 20));
  expect(alive(serverPid)).toBe(false);
}, 60_000);
