/**
 * Codex CLI runs a hook only once its user trusted it: a hook it has not reviewed is skipped
 * without a word. Trust is a table per hook in `$CODEX_HOME/config.toml`,
 * `[hooks.state."<key>"]` with `trusted_hash = "<hash>"`, the key naming the hook's place
 * (`<hooks.json>:pre_tool_use:0:0`) and the hash its current definition. Both come from Codex
 * itself: `codex app-server` lists a folder's hooks (`hooks/list`, JSON-RPC over stdio), as
 * its own hooks review does. Only the entries `hookwise setup` wrote are trusted here.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { killGroup, spawnInGroup } from "../../tools/process-groups.js";

/** A hook as `hooks/list` reports it. */
interface ListedHook {
  readonly key: string;
  readonly currentHash: string;
}

/** Where Codex keeps its config: `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || join(homedir(), ".codex");
}

/** The hooks Codex finds for `cwd` (its project's and its user's hook files), as it lists them. */
export function listCodexHooks(
  cwd: string,
  options: { codex?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ListedHook[]> {
  const codex = options.codex ?? "codex";
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child = spawnInGroup(codex, ["app-server"], {
    cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Promise<ListedHook[]>((resolve, reject) => {
    const done = (error: Error | undefined, hooks?: ListedHook[]) => {
      clearTimeout(timer);
      killGroup(child.pid);
      if (error) reject(error);
      else resolve(hooks ?? []);
    };
    const timer = setTimeout(
      () => done(new HookwiseError(`codex app-server listed no hooks within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    let buffered = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        let message: { id?: unknown; result?: { data?: { hooks?: ListedHook[] }[] }; error?: unknown };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id !== 2) continue;
        if (!message.result)
          return done(
            new HookwiseError(`codex app-server could not list hooks: ${JSON.stringify(message.error)}`),
          );
        return done(
          undefined,
          (message.result.data ?? []).flatMap((entry) => entry.hooks ?? []),
        );
      }
    });
    child.once("error", (error: NodeJS.ErrnoException) =>
      done(
        new HookwiseError(
          error.code === "ENOENT"
            ? `"${codex}" is not on PATH, so Codex's trust in the new hooks could not be recorded`
            : `codex app-server did not start: ${error.message}`,
        ),
      ),
    );
    child.once("exit", (code) => {
      if (code !== null && code !== 0)
        done(new HookwiseError(`codex app-server exited ${code}: ${stderr.trim().split("\n").at(-1) ?? ""}`));
    });
    child.stdin?.on("error", () => {}); // gone before it read: its exit or the timeout says why
    // Stdin stays open until the answer: the server stops when it closes.
    child.stdin?.write(
      [
        { id: 1, method: "initialize", params: { clientInfo: { name: "hookwise", version: "1" } } },
        { method: "initialized" },
        { id: 2, method: "hooks/list", params: { cwds: [cwd] } },
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(""),
    );
  });
}

/** `pre_tool_use` → `PreToolUse`: the event's name in hooks.json. */
function eventName(snake: string): string {
  return snake
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** The command a listed hook runs, read from the hooks file its key names. */
function commandOf(key: string): string | undefined {
  const match = /^(.*):([a-z_]+):(\d+):(\d+)$/.exec(key);
  if (!match) return undefined;
  const [, file, event, group, index] = match;
  try {
    const settings = JSON.parse(readFileSync(file!, "utf8")) as {
      hooks?: Record<string, { hooks?: { command?: unknown }[] }[]>;
    };
    const command = settings.hooks?.[eventName(event!)]?.[Number(group)]?.hooks?.[Number(index)]?.command;
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

/** The hooks of the listing that are setup's own entries (`isOurs` of their command). */
export function oursOf(hooks: readonly ListedHook[], isOurs: (command: string) => boolean): ListedHook[] {
  return hooks.filter((hook) => {
    const command = commandOf(hook.key);
    return command !== undefined && isOurs(command);
  });
}

const header = (key: string) => `[hooks.state.${JSON.stringify(key)}]`;

/**
 * config.toml with each hook's trust recorded (its table replaced when it has one), or each
 * key's table taken out (`hash` undefined). Only these tables are touched; the rest of the
 * file stays as it is, byte for byte.
 */
export function withTrust(toml: string, entries: readonly { key: string; hash?: string }[]): string {
  const lines = toml === "" ? [] : toml.replace(/\n$/, "").split("\n");
  for (const { key, hash } of entries) {
    const start = lines.findIndex((line) => line.trim() === header(key));
    if (start !== -1) {
      let end = start + 1;
      while (end < lines.length && !/^\s*\[/.test(lines[end]!)) end++;
      // A table taken out takes its blank line with it: the one after it, or before it when last.
      const last = end === lines.length;
      const from =
        hash === undefined && last && start > 0 && lines[start - 1]!.trim() === "" ? start - 1 : start;
      const kept = hash === undefined ? [] : [header(key), `trusted_hash = ${JSON.stringify(hash)}`];
      if (hash !== undefined && !last) kept.push("");
      lines.splice(from, end - from, ...kept);
    } else if (hash !== undefined) {
      lines.push("", header(key), `trusted_hash = ${JSON.stringify(hash)}`);
    }
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** Writes config.toml through a temporary file, so Codex never reads half of it. */
export function writeCodexConfig(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.hookwise-${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}

export function readCodexConfig(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}
