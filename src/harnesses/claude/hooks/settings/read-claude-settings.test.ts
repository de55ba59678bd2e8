import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConfigIssue } from "../../../../config/source/config-error.js";
import { readClaudeSettings } from "./read-claude-settings.js";

let base: string;
let project: string;
let home: string;
const savedHome = process.env.HOME;
const savedPath = process.env.PATH;
/** The hook programs these settings name, installed on PATH (a missing one is reported). */
const PROGRAMS = ["local.sh", "project.sh", "stop.sh", "user.sh", "idle.sh", "a.sh", "b.sh", "c.sh", "x"];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "hookwise-claude-settings-"));
  project = join(base, "project");
  home = join(base, "home");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
  // The user's settings are ~/.claude/settings.json.
  process.env.HOME = home;
  const bin = join(base, "bin");
  mkdirSync(bin);
  for (const program of PROGRAMS) writeFileSync(join(bin, program), "#!/bin/sh\n", { mode: 0o755 });
  process.env.PATH = `${bin}:${savedPath}`;
});
afterEach(() => {
  process.env.HOME = savedHome;
  process.env.PATH = savedPath;
  rmSync(base, { recursive: true, force: true });
});

function write(file: string, value: unknown): string {
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

const command = (text: string) => ({ hooks: [{ type: "command", command: text }] });

function brief(issue: ConfigIssue): string {
  return `${issue.severity} ${issue.line}:${issue.column} ${issue.path.join(".")}: ${issue.message}`;
}

describe("reading Claude Code settings", () => {
  it("merges user, project and local files as Claude Code does: every hook runs, the most specific scalar wins", () => {
    const local = write(join(project, ".claude", "settings.local.json"), {
      env: { TEAM: "local" },
      hooks: { PreToolUse: [command("local.sh")] },
    });
    const projectFile = write(join(project, ".claude", "settings.json"), {
      env: { TEAM: "project", ONLY_PROJECT: "1" },
      permissions: { allow: ["Bash"] },
      hooks: { PreToolUse: [command("project.sh")], Stop: [command("stop.sh")] },
    });
    const user = write(join(home, ".claude", "settings.json"), {
      hooks: { PreToolUse: [command("user.sh")] },
    });
    // Listed in any order: user first, then project (file order), then local.
    const read = readClaudeSettings([local, user, projectFile]);
    expect(read.issues).toEqual([]);
    expect(
      read.handlers.map((handler) => [handler.claudeEvent, handler.type === "command" && handler.command]),
    ).toEqual([
      ["PreToolUse", "user.sh"],
      ["PreToolUse", "project.sh"],
      ["Stop", "stop.sh"],
      ["PreToolUse", "local.sh"],
    ]);
    expect(read.env).toEqual({ TEAM: "local", ONLY_PROJECT: "1" });
    // $CLAUDE_PROJECT_DIR is the folder holding .claude/.
    expect(read.projectDir).toBe(project);
    expect(read.handlers.map((handler) => handler.origin)).toEqual([
      join(home, ".claude", "settings.json"),
      ".claude/settings.json",
      ".claude/settings.json",
      ".claude/settings.local.json",
    ]);
  });

  it("disableAllHooks in the most specific file that sets it turns every hook off", () => {
    const projectFile = write(join(project, ".claude", "settings.json"), { hooks: { Stop: [command("x")] } });
    const local = write(join(project, ".claude", "settings.local.json"), { disableAllHooks: true });
    const read = readClaudeSettings([projectFile, local]);
    expect(read.handlers).toEqual([]);
    expect(read.issues.map(brief)).toEqual([
      "warning 2:22 disableAllHooks: disableAllHooks is true (local settings): no Claude Code hook runs",
    ]);
    write(join(home, ".claude", "settings.json"), { disableAllHooks: true });
    // A more specific false wins over the user's true.
    write(local, { disableAllHooks: false });
    expect(
      readClaudeSettings([join(home, ".claude", "settings.json"), projectFile, local]).handlers,
    ).toHaveLength(1);
  });

  it("warns (and skips) what it does not run: unsupported events and handler types, if, unknown fields", () => {
    const file = write(join(project, ".claude", "settings.json"), {
      hooks: {
        TeammateIdle: [command("idle.sh")],
        PreToolUse: [
          {
            matcher: "Bash",
            color: "red",
            hooks: [
              { type: "prompt", prompt: "Is this safe?" },
              { type: "command", command: "a.sh", if: "Bash(git *)" },
              { type: "command", command: "b.sh", timout: 5 },
            ],
          },
        ],
        Stop: [{ matcher: "x", hooks: [{ type: "command", command: "c.sh" }] }],
      },
    });
    const read = readClaudeSettings([file]);
    expect(read.issues.every((issue) => issue.severity === "warning" && issue.file === file)).toBe(true);
    expect(read.issues.map(brief)).toEqual([
      expect.stringMatching(/^warning 3:5 hooks.TeammateIdle: unsupported Claude Code event "TeammateIdle"/),
      expect.stringMatching(
        /^warning 16:9 hooks.PreToolUse.0.color: unknown field "color" of a matcher group/,
      ),
      expect.stringMatching(
        /^warning 19:21 hooks.PreToolUse.0.hooks.0.type: "prompt" handlers need a model to answer them .*: this handler does not run$/,
      ),
      "warning 25:13 hooks.PreToolUse.0.hooks.1.if: `if` conditions (permission-rule syntax) are not supported: this handler does not run",
      expect.stringMatching(/^warning 30:13 hooks.PreToolUse.0.hooks.2.timout: unknown field "timout"/),
      'warning 37:20 hooks.Stop.0.matcher: Stop takes no matcher; "x" is ignored',
    ]);
    expect(read.issues[4]!.suggestion).toBe("timeout");
    expect(read.handlers.map((handler) => handler.type === "command" && handler.command)).toEqual([
      "b.sh",
      "c.sh",
    ]);
  });

  it("reports what cannot run as errors at their place", () => {
    const file = write(join(project, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [
          { matcher: "Bash(", hooks: [{ type: "command", command: "a.sh" }] },
          {
            hooks: [
              { type: "command" },
              { type: "command", command: "b.sh", timeout: -1, onFailure: "blok" },
            ],
          },
          {
            hooks: [
              { type: "http", url: "ftp://x" },
              { type: "shell", command: "c" },
            ],
          },
        ],
        Stop: { hooks: [] },
      },
    });
    const issues = readClaudeSettings([file]).issues.filter((issue) => issue.severity === "error");
    expect(issues.map(brief)).toEqual([
      expect.stringMatching(
        /^error 5:20 hooks.PreToolUse.0.matcher: matcher "Bash\(" is not a valid regular expression/,
      ),
      "error 15:11 hooks.PreToolUse.1.hooks.0.command: a command handler needs a command",
      "error 21:24 hooks.PreToolUse.1.hooks.1.timeout: timeout must be a positive number of seconds",
      'error 22:26 hooks.PreToolUse.1.hooks.1.onFailure: onFailure must be "block" or "continue"',
      "error 30:20 hooks.PreToolUse.2.hooks.0.url: an http handler needs a url",
      'error 33:21 hooks.PreToolUse.2.hooks.1.type: unknown handler type "shell"',
      "error 39:13 hooks.Stop: Stop must be a list of matcher groups",
    ]);
    expect(issues[3]!.suggestion).toBe("block");
  });

  it("a file that is missing or not JSON is an error with its position", () => {
    const broken = write(join(project, ".claude", "settings.json"), '{\n  "hooks": { "Stop": [] },\n}');
    const read = readClaudeSettings([broken, "missing.json"], { baseDir: project });
    expect(
      read.issues.map((issue) => `${issue.file} ${issue.line}:${issue.column} ${issue.message}`),
    ).toEqual([
      expect.stringMatching(new RegExp(`^${broken} 3:1 Claude Code settings must be JSON: `)),
      "missing.json 1:1 cannot read Claude Code settings file missing.json: no such file",
    ]);
  });

  it("reads settings objects too (no file: no position)", () => {
    const read = readClaudeSettings(
      [
        {
          hooks: {
            Notification: [{ matcher: "notify", hooks: [{ type: "http", url: "http://127.0.0.1:1/x" }] }],
          },
        },
      ],
      {
        projectDir: project,
      },
    );
    expect(read.issues).toEqual([]);
    expect(read.handlers[0]).toMatchObject({
      type: "http",
      origin: "settings",
      matcher: "notify",
      headers: {},
      allowedEnvVars: [],
    });
    expect(read.projectDir).toBe(project);
  });

  it("a command's program missing from PATH is a warning, an error when failures block", () => {
    const file = write(join(project, ".claude", "settings.json"), {
      hooks: {
        PreToolUse: [command("uv-missing run .claude/hooks/check.py")],
        Stop: [{ hooks: [{ type: "command", command: "jq-missing .x", onFailure: "block" }] }],
        PostToolUse: [command("echo ok"), command("user.sh --flag")],
      },
    });
    expect(readClaudeSettings([file]).issues.map(brief)).toEqual([
      'warning 8:24 hooks.PreToolUse.0.hooks.0.command: the command\'s program "uv-missing" is not on PATH: this hook would fail at every call and let it through',
      'error 18:24 hooks.Stop.0.hooks.0.command: the command\'s program "jq-missing" is not on PATH: every call this hook guards would be blocked',
    ]);
    const closed = readClaudeSettings([file], { failure: "closed" });
    expect(closed.issues.map((issue) => [issue.severity, issue.path.join(".")])).toEqual([
      ["error", "hooks.PreToolUse.0.hooks.0.command"],
      ["error", "hooks.Stop.0.hooks.0.command"],
    ]);
  });

  it("reads a plugin's hooks.json (or its folder), its handlers knowing the plugin's root", () => {
    const plugin = join(base, "plugins", "ralph");
    mkdirSync(join(plugin, "hooks"), { recursive: true });
    mkdirSync(join(plugin, ".claude-plugin"));
    const file = write(join(plugin, "hooks", "hooks.json"), {
      description: "a Stop loop",
      hooks: {
        Stop: [
          {
            hooks: [
              // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's literal ${VAR} syntax
              { type: "command", command: "${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh" },
            ],
          },
        ],
      },
    });
    for (const source of [file, plugin]) {
      const read = readClaudeSettings([source], { projectDir: project });
      expect(read.issues).toEqual([]);
      expect(read.handlers).toEqual([expect.objectContaining({ claudeEvent: "Stop", pluginRoot: plugin })]);
    }
  });
});
