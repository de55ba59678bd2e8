/**
 * A Claude Code project's hooks and a plugin, as people write them, run unchanged on an
 * agent built on the coding toolset: the Bash validator and the pre-tool-use guard block
 * (Grep included), the post-tool-use logger reads `tool_response` fields, the plugin's Stop
 * loop feeds its prompt back until the promise, and SessionEnd fires when `run --prompt` ends.
 */

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

const CORPUS = resolve(import.meta.dirname, "../fixtures/corpus");

let base: string;
let dir: string;
const savedPath = process.env.PATH;
/**
 * The hooks run `python3` from PATH; a version manager's shim (pyenv) costs seconds per
 * start on a busy machine, so the interpreter it points at goes first.
 */
const python = dirname(
  execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim(),
);
beforeEach(() => {
  process.env.PATH = `${python}:${savedPath}`;
  base = mkdtempSync(join(tmpdir(), "hookwise-corpus-"));
  dir = join(base, "project");
  cpSync(join(CORPUS, "claude-project"), dir, { recursive: true });
  cpSync(join(CORPUS, "ralph-plugin"), join(base, "ralph-plugin"), { recursive: true });
});
afterEach(() => {
  process.env.PATH = savedPath;
  rmSync(base, { recursive: true, force: true });
});

function jsonl(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const call = (name: string, args: Record<string, unknown>) =>
  `  - { name: ${name}, args: ${JSON.stringify(args)} }`;

function project(): string {
  writeFileSync(
    join(dir, ".claude", "ralph-loop.local.md"),
    [
      "---",
      "iteration: 1",
      "max_iterations: 5",
      'completion_promise: "DONE"',
      "---",
      "Tidy the notes, then say DONE.",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "script.yaml"),
    [
      "- tool_calls:",
      call("Bash", { command: "grep foo src/a.txt" }),
      call("Bash", { command: "rm -rf build" }),
      call("Read", { file_path: join(dir, ".env") }),
      call("Grep", { pattern: "TOKEN", path: ".env", output_mode: "content" }),
      call("Write", { file_path: join(dir, "notes.md"), content: "# Notes\n" }),
      call("Edit", { file_path: "notes.md", old_string: "# Notes", new_string: "# Tidy notes" }),
      call("Bash", { command: "echo hello" }),
      "- text: tidied",
      "- text: all tidy <promise>DONE</promise>",
    ].join("\n"),
  );
  const config = join(dir, "hookwise.yaml");
  writeFileSync(
    config,
    [
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  code: { kind: builtin, module: coding, root: . }",
      "claude_hooks: [.claude/settings.json, ../ralph-plugin]",
      "claude_hooks_failure: closed",
    ].join("\n"),
  );
  return config;
}

describe("a Claude Code setup, unchanged, on the coding toolset", () => {
  it("validate accepts it: every hook program is on PATH, the plugin's folder is read", {
    timeout: 60_000,
  }, async () => {
    const out = await cli(["validate", project()]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("hooks for Bash, Read, Grep, Write, Edit fire as in Claude Code; the plugin's Stop loop; SessionEnd", {
    timeout: 120_000,
  }, async () => {
    const out = await cli(["run", project(), "--prompt", "tidy the notes", "--json"]);
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("all tidy <promise>DONE</promise>");
    const [grep, rm, read, search, write, edit, echo] = result.steps[0].toolResults;
    // The validator's exit 2 and the guard's blocks stop the calls, with their reasons.
    expect(grep).toMatchObject({ executed: false, isError: true });
    expect(grep.result).toContain("Use 'rg' (ripgrep) instead of 'grep'");
    expect(rm).toMatchObject({ executed: false, isError: true });
    expect(rm.result).toContain("BLOCKED: Dangerous rm command");
    expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
    for (const blocked of [read, search]) {
      expect(blocked).toMatchObject({ executed: false, isError: true });
      expect(blocked.result).toContain("BLOCKED: Access to .env files");
    }
    expect(out.stdout).not.toContain("sk-corpus-very-secret");
    expect([write, edit, echo].map((entry) => entry.executed)).toEqual([true, true, true]);
    expect(readFileSync(join(dir, "notes.md"), "utf8")).toBe("# Tidy notes\n");
    // The post-tool-use logger read Claude's tool_response fields.
    expect(jsonl(join(dir, "logs", "changes.jsonl"))).toEqual([
      { tool: "Write", file: join(dir, "notes.md"), type: "create", success: true },
      { tool: "Edit", file: join(dir, "notes.md") },
      { tool: "Bash", stdout: "hello\n", interrupted: false },
    ]);
    // The pre-tool-use guard logged the calls it let through (the grep too: the validator,
    // another hook, denied it), by Claude's names and fields.
    const logged = JSON.parse(readFileSync(join(dir, "logs", "pre_tool_use.json"), "utf8"));
    expect(logged.map((entry: { tool_name: string }) => entry.tool_name)).toEqual([
      "Bash",
      "Write",
      "Edit",
      "Bash",
    ]);
    expect(logged[2].tool_input).toEqual({
      file_path: "notes.md",
      old_string: "# Notes",
      new_string: "# Tidy notes",
    });
    // The plugin's Stop hook sent its prompt back once, then let the promise end the run.
    const third = result.requests[2].messages;
    expect(JSON.stringify(third.at(-1))).toContain("Tidy the notes, then say DONE.");
    expect(existsSync(join(dir, ".claude", "ralph-loop.local.md"))).toBe(false);
    // The one-shot run ended its session, as `claude -p` does.
    expect(jsonl(join(dir, "logs", "session_end.jsonl"))).toEqual([
      { reason: "other", session_id: result.sessionId },
    ]);
  });
});
