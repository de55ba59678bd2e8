/** Runs the CLI in-process (captured output) or as a real child process. */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main.js";

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: readonly string[]): Promise<CliOutput> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: {
      line: (text) => {
        stdout += `${text}\n`;
      },
      write: (text) => {
        stdout += text;
      },
    },
    stderr: {
      line: (text) => {
        stderr += `${text}\n`;
      },
      write: (text) => {
        stderr += text;
      },
    },
    isTTY: false,
    // Nothing piped: stdin ends at once, as `< /dev/null`.
    readInput: async () => "",
  });
  return { code, stdout, stderr };
}

const ROOT = resolve(import.meta.dirname, "../..");

/** The CLI as a user runs it: `node --import tsx src/cli/main.ts …`, in a child process. */
export function cliProcess(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliOutput> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** A temp copy of an example folder; `cleanup()` removes it. */
export function copyExample(name: string): { dir: string; cleanup: () => void } {
  const base = mkdtempSync(join(tmpdir(), "hookwise-cli-"));
  const dir = join(base, name.replace(/\//g, "_"));
  cpSync(join(ROOT, "examples", name), dir, { recursive: true });
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
