/**
 * Records Codex's trust in the hooks a project's and the user's hook files declare, as Codex's
 * own hook review does: `codex app-server` (JSON-RPC, one JSON message per line on stdio) lists
 * them with `hooks/list`, each with its `key` and `currentHash`, and each trusted one is a
 * `[hooks.state."<key>"] trusted_hash = "<currentHash>"` table in `$CODEX_HOME/config.toml`.
 * Without it `codex exec` silently skips the hooks (unless run with
 * `--dangerously-bypass-hook-trust`).
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { harnesses } from "./install.js";
import { baseEnv } from "./run-claude.js";

interface ListedHook {
  readonly key: string;
  readonly currentHash: string;
  readonly trustStatus: string;
}

/** Trusts every hook Codex finds for `cwd`; returns the keys it trusted. */
export function trustCodexHooks(home: string, cwd: string, timeoutMs = 30_000): Promise<string[]> {
  const codexHome = join(home, ".codex");
  const child = spawn(harnesses.bin.codex, ["app-server"], {
    cwd,
    env: { ...baseEnv(home), CODEX_HOME: codexHome },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`codex app-server gave no hooks/list answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        let message: { id?: number; result?: { data: { hooks: ListedHook[] }[] }; error?: unknown };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id !== 2) continue;
        clearTimeout(timer);
        stop();
        if (!message.result) return reject(new Error(`hooks/list failed: ${JSON.stringify(message.error)}`));
        const hooks = message.result.data.flatMap((entry) => entry.hooks);
        const tables = hooks.map(
          (hook) =>
            `\n[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = ${JSON.stringify(hook.currentHash)}\n`,
        );
        appendFileSync(join(codexHome, "config.toml"), tables.join(""));
        resolve(hooks.map((hook) => hook.key));
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdin.on("error", () => {}); // the server gone before it read: the timeout reports it
    // Stdin stays open: the app server stops when it closes, before it answers.
    child.stdin.write(
      [
        { id: 1, method: "initialize", params: { clientInfo: { name: "hookwise-tests", version: "0" } } },
        { method: "initialized" },
        { id: 2, method: "hooks/list", params: { cwds: [cwd] } },
      ]
        .map((message) => JSON.stringify(message))
        .join("\n")
        .concat("\n"),
    );
  });
}
