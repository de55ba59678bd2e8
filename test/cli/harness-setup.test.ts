/**
 * `hookwise setup`: the entries it adds to each harness's settings file, everything else kept,
 * idempotent, `--dry-run`, `--remove` taking out only its own — and the command it writes
 * answering a real event when a shell runs it, as the harness does.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { redirectOptionalPackage } from "../../src/errors/optional-package.js";
import { cli, cliProcess } from "../support/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CONFIG = `harness: [claude, codex, gemini, cursor]
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
  hooks:
    - id: audit
      on: tool_result
      action: { type: log, message: "{{tool.name}} ran" }
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-setup-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  return dir;
}

/** `hookwise setup <harness> <config in dir> … --project dir`. */
const setup = (dir: string, harness: string, config: string, ...args: string[]) =>
  cliProcess(["setup", harness, join(dir, config), "--project", dir, ...args], { timeoutMs: 60_000 });

describe("hookwise setup", { timeout: 120_000 }, () => {
  it("adds Claude Code entries for the events the config uses, keeps the rest, and changes nothing the second time", async () => {
    const dir = project();
    mkdirSync(join(dir, ".claude"));
    const existing = {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "./lint.sh" }] }] },
    };
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify(existing, null, 2));
    const first = await setup(dir, "claude", "hookwise.yaml");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("PreToolUse, PostToolUse");
    const written = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"));
    expect(written.permissions).toEqual(existing.permissions);
    expect(written.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    expect(written.hooks.PreToolUse[1].matcher).toBe("*");
    expect(written.hooks.PreToolUse[1].hooks[0].command).toContain("hook");
    expect(written.hooks.PreToolUse[1].hooks[0].command).toContain("--harness claude");
    expect(written.hooks.PostToolUse).toHaveLength(1);
    // Events the config has no hook for are left alone.
    expect(written.hooks.UserPromptSubmit).toBeUndefined();
    const before = readFileSync(join(dir, ".claude", "settings.json"), "utf8");
    const second = await setup(dir, "claude", "hookwise.yaml");
    expect(second.stdout).toContain("nothing to change");
    expect(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).toBe(before);

    const removed = await setup(dir, "claude", "hookwise.yaml", "--remove");
    expect(removed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"))).toEqual(existing);
  });

  it("says how to undo it with the hookwise the project can run: npx for its own install", async () => {
    const dir = project();
    const global = await setup(dir, "gemini", "hookwise.yaml");
    expect(global.stdout).toContain(`  undo: hookwise setup gemini ${join(dir, "hookwise.yaml")} --remove`);
    mkdirSync(join(dir, "node_modules", "hookwise", "bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "hookwise", "bin", "hookwise.js"), "");
    const local = await setup(dir, "claude", "hookwise.yaml");
    expect(local.stdout).toContain(
      `  undo: npx hookwise setup claude ${join(dir, "hookwise.yaml")} --remove`,
    );
  });

  it("prints the change with --dry-run and writes nothing", async () => {
    const dir = project();
    const dry = await setup(dir, "gemini", "hookwise.yaml", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("+++ .gemini/settings.json");
    expect(dry.stdout).toContain('+     "BeforeTool": [');
    expect(existsSync(join(dir, ".gemini"))).toBe(false);
  });

  it("writes each harness's own file and shape", async () => {
    const dir = project();
    expect((await setup(dir, "cursor", "hookwise.yaml")).code).toBe(0);
    const cursor = JSON.parse(readFileSync(join(dir, ".cursor", "hooks.json"), "utf8"));
    expect(cursor.version).toBe(1);
    expect(cursor.hooks.beforeShellExecution[0].command).toContain("--harness cursor");
    // preToolUse too: the only event Cursor sends before its other tools (Write, Edit, Delete…).
    expect(cursor.hooks.preToolUse[0].command).toContain("--harness cursor");
    // A gate's hook that fails (times out, answers no JSON) blocks rather than lets through.
    expect(cursor.hooks.preToolUse[0].failClosed).toBe(true);
    expect(cursor.hooks.beforeShellExecution[0].failClosed).toBe(true);
    expect(cursor.hooks.afterShellExecution[0].failClosed).toBeUndefined();
    expect((await setup(dir, "codex", "hookwise.yaml", "--no-trust")).code).toBe(0);
    const codex = JSON.parse(readFileSync(join(dir, ".codex", "hooks.json"), "utf8"));
    expect(codex.hooks.PreToolUse[0].hooks[0].command).toContain("--harness codex");
    expect((await setup(dir, "gemini", "hookwise.yaml")).code).toBe(0);
    const gemini = JSON.parse(readFileSync(join(dir, ".gemini", "settings.json"), "utf8"));
    expect(gemini.hooks.BeforeTool[0]).toMatchObject({ matcher: ".*" });
  });

  it("codex: says it could not record Codex's trust (exit 1) when codex is not there, and --remove takes the trust out with the entries", async () => {
    const dir = project();
    const codexHome = join(dir, "codex-home");
    mkdirSync(codexHome);
    const env = { CODEX_HOME: codexHome, PATH: "/usr/bin:/bin" };
    const run = (...args: string[]) =>
      cliProcess(["setup", "codex", join(dir, "hookwise.yaml"), "--project", dir, ...args], {
        env,
        timeoutMs: 60_000,
      });
    const missing = await run();
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('"codex" is not on PATH');
    expect(missing.stderr).toContain("Codex skips hooks it has not trusted");
    expect(existsSync(join(dir, ".codex", "hooks.json"))).toBe(true);
    // Trust as setup records it, beside the user's own settings and another hook's trust.
    const key = `${join(dir, ".codex", "hooks.json")}:pre_tool_use:0:0`;
    const other = `${join(dir, ".codex", "hooks.json")}:stop:0:0`;
    const toml = `model = "o4"\n\n[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "sha256:abc"\n\n[hooks.state.${JSON.stringify(other)}]\ntrusted_hash = "sha256:def"\n`;
    writeFileSync(join(codexHome, "config.toml"), toml);
    const removed = await run("--remove");
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("removed Codex's trust in them");
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe(
      `model = "o4"\n\n[hooks.state.${JSON.stringify(other)}]\ntrusted_hash = "sha256:def"\n`,
    );
  });

  it("codex: says the project must be one Codex trusts when Codex lists none of the entries (exit 1)", async () => {
    const dir = project();
    const codexHome = join(dir, "codex-home");
    const bin = join(dir, "bin");
    mkdirSync(codexHome);
    mkdirSync(bin);
    // A codex whose app-server lists no hook, as Codex does for a project it does not trust.
    writeFileSync(
      join(bin, "codex"),
      `#!${process.execPath}\nrequire("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {\n  const message = JSON.parse(line);\n  if (message.id === 2) { process.stdout.write(JSON.stringify({ id: 2, result: { data: [] } }) + "\\n"); process.exit(0); }\n});\n`,
      { mode: 0o755 },
    );
    const result = await cliProcess(["setup", "codex", join(dir, "hookwise.yaml"), "--project", dir], {
      env: { CODEX_HOME: codexHome, PATH: `${bin}:/usr/bin:/bin` },
      timeoutMs: 60_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Codex does not list the entries of ${join(dir, ".codex", "hooks.json")}`,
    );
    expect(result.stderr).toContain(`trust_level = "trusted" under [projects.${JSON.stringify(dir)}]`);
    expect(result.stderr).not.toContain("on PATH");
    expect(existsSync(join(codexHome, "config.toml"))).toBe(false);
  });

  it("writes a command that answers the harness's event from any folder, as the harness's shell runs it", async () => {
    const dir = project();
    await setup(dir, "claude", "hookwise.yaml");
    const written = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"));
    const command: string = written.hooks.PreToolUse.at(-1).hooks[0].command;
    const event = {
      session_id: "setup-e2e",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "toolu_1",
    };
    const elsewhere = mkdtempSync(join(tmpdir(), "hookwise-elsewhere-"));
    dirs.push(elsewhere);
    const ran = spawnSync("sh", ["-c", command], {
      cwd: elsewhere,
      input: JSON.stringify(event),
      encoding: "utf8",
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
      timeout: 60_000,
    });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "no recursive deletes",
    });
  });

  it("writes gate commands that block when they end without deciding (no node on the harness's PATH), and other events' as they are", async () => {
    const dir = project();
    // An installed hookwise: the command then runs `node` from the harness's PATH.
    mkdirSync(join(dir, "node_modules", "hookwise", "bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "hookwise", "bin", "hookwise.js"), "");
    expect((await setup(dir, "claude", "hookwise.yaml")).code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"));
    const gate: string = written.hooks.PreToolUse.at(-1).hooks[0].command;
    const after: string = written.hooks.PostToolUse.at(-1).hooks[0].command;
    const run = (command: string) =>
      spawnSync("/bin/sh", ["-c", command], {
        input: JSON.stringify({
          session_id: "s",
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: "ls" },
          tool_use_id: "t",
        }),
        encoding: "utf8",
        env: { PATH: join(dir, "no-such-folder"), CLAUDE_PROJECT_DIR: dir },
        timeout: 60_000,
      });
    const blocked = run(gate);
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain(
      "hookwise: the hook command ended with exit code 127 before deciding; blocked",
    );
    // A PostToolUse hook's failure stays the harness's non-blocking error.
    expect(run(after).status).toBe(127);
    // Claude Code ends a gate's command at 60 s (not its 30 s on a prompt), and then blocks.
    expect(written.hooks.PreToolUse.at(-1).hooks[0]).toMatchObject({ timeout: 60, onFailure: "block" });
    expect(written.hooks.PostToolUse.at(-1).hooks[0]).not.toHaveProperty("onFailure");
    // The entries are still setup's own: a second run changes nothing, --remove takes them out.
    expect((await setup(dir, "claude", "hookwise.yaml")).stdout).toContain("nothing to change");
    expect((await setup(dir, "claude", "hookwise.yaml", "--remove")).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).hooks ?? {}).toEqual({});
  });

  it("takes as its own only the entries of this very config: another config's guard whose path contains this one's stays", async () => {
    const dir = project();
    // Installed: commands name the configs relative to the project ("$CLAUDE_PROJECT_DIR"/…).
    mkdirSync(join(dir, "node_modules", "hookwise", "bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "hookwise", "bin", "hookwise.js"), "");
    mkdirSync(join(dir, "ci"));
    writeFileSync(join(dir, "ci", "hookwise.yaml"), CONFIG);
    // And by absolute path, in a folder whose name needs quoting.
    const quoted = join(dir, "it's here");
    mkdirSync(quoted);
    writeFileSync(join(quoted, "hookwise.yaml"), CONFIG);
    const commands = () =>
      (
        JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).hooks.PreToolUse as {
          hooks: { command: string }[];
        }[]
      ).map((group) => group.hooks[0]!.command);
    expect((await setup(dir, "claude", "ci/hookwise.yaml")).code).toBe(0);
    expect((await setup(dir, "claude", "hookwise.yaml")).code).toBe(0);
    expect((await setup(dir, "claude", "it's here/hookwise.yaml")).code).toBe(0);
    expect(commands()).toHaveLength(3);
    expect(commands().filter((command) => command.includes("/ci/hookwise.yaml"))).toHaveLength(1);
    // Each is its own: a second run changes nothing, --remove takes out that one alone.
    expect((await setup(dir, "claude", "it's here/hookwise.yaml")).stdout).toContain("nothing to change");
    expect((await setup(dir, "claude", "hookwise.yaml")).stdout).toContain("nothing to change");
    expect((await setup(dir, "claude", "hookwise.yaml", "--remove")).code).toBe(0);
    expect(commands()).toHaveLength(2);
    expect(commands().filter((command) => command.includes("/ci/hookwise.yaml"))).toHaveLength(1);
    expect((await setup(dir, "claude", "it's here/hookwise.yaml", "--remove")).code).toBe(0);
    expect(commands()).toHaveLength(1);
    expect(commands()[0]).toContain("/ci/hookwise.yaml");
  });

  it("refuses a config that does not load, an unknown harness and a settings file that is not JSON", async () => {
    const dir = project();
    writeFileSync(
      join(dir, "broken.yaml"),
      "harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: Bsh }\n",
    );
    const broken = await setup(dir, "claude", "broken.yaml");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('did you mean "Bash"');
    expect(existsSync(join(dir, ".claude"))).toBe(false);
    const unknown = await setup(dir, "claud", "hookwise.yaml");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "claude"');
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), "{ not json");
    const bad = await setup(dir, "claude", "hookwise.yaml");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not JSON");
    expect(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).toBe("{ not json");
  });

  it("asks for no native package: without better-sqlite3 the hook's file store is fine for daily use", async () => {
    const dir = project();
    const config = join(dir, "hookwise.yaml");
    const undo = redirectOptionalPackage("better-sqlite3", "hookwise-no-such-package");
    try {
      const result = await cli(["setup", "claude", config, "--project", dir]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain("file store");
      expect(result.stderr).not.toContain("better-sqlite3");
    } finally {
      undo();
    }
  });
});
