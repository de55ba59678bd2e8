/**
 * `hookwise validate` against the entries `hookwise setup` wrote for the config: a policy or
 * hook added since setup ran needs harness events the settings file does not run hookwise on
 * (the harness never asks: the policy does not apply), and validate says so with the command
 * that fixes it; `setup --dry-run` shows the entries it would add.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

const AUDIT_ONLY = `harness: claude
runtime:
  hooks:
    - id: audit
      on: tool_result
      action: { type: log, message: "{{tool.name}} ran" }
`;

const WITH_DENY = `harness: claude
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
  hooks:
    - id: audit
      on: tool_result
      action: { type: log, message: "{{tool.name}} ran" }
`;

const dirs: string[] = [];
const home = process.env.HOME;
beforeEach(() => {
  // The user scope's files are looked in too: a home of the test's own.
  const dir = mkdtempSync(join(tmpdir(), "hookwise-stale-home-"));
  dirs.push(dir);
  process.env.HOME = dir;
});
afterEach(() => {
  process.env.HOME = home;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(config: string): { dir: string; config: string; settings: string } {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-stale-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hookwise.yaml"), config);
  return { dir, config: join(dir, "hookwise.yaml"), settings: join(dir, ".claude", "settings.json") };
}

const setup = (dir: string, config: string, ...args: string[]) =>
  cli(["setup", "claude", config, "--project", dir, ...args]);

describe("validate: entries of hookwise setup that miss events", { timeout: 60_000 }, () => {
  it("warns when the config now needs an event setup did not register, and stops once setup ran again", async () => {
    const { dir, config, settings } = project(AUDIT_ONLY);
    const first = await setup(dir, config);
    expect(first.code).toBe(0);
    const written = JSON.parse(readFileSync(settings, "utf8"));
    expect(Object.keys(written.hooks)).toEqual(["PostToolUse"]);
    expect((await cli(["validate", config])).stdout).not.toContain("warning");

    // A deny policy on shell added afterwards: Claude Code never calls hookwise before a tool runs.
    writeFileSync(config, WITH_DENY);
    const stale = await cli(["validate", config]);
    expect(stale.code).toBe(0);
    const warning = stale.stdout.split("\n").find((line) => line.includes("warning:"));
    expect(warning).toBeDefined();
    expect(warning).toContain(`${config}:1:`);
    expect(warning).toContain("harness:");
    expect(warning).toContain("Claude Code");
    expect(warning).toContain("not on PreToolUse");
    expect(warning).toContain(`run \`hookwise setup claude ${config} --project ${dir}\``);
    expect(stale.stdout).toContain("valid (1 warning)");

    // The dry run shows the entry it would add.
    const dry = await setup(dir, config, "--dry-run");
    expect(dry.stdout).toContain('+     "PreToolUse": [');
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual(written);

    expect((await setup(dir, config)).code).toBe(0);
    const fixed = await cli(["validate", config]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).not.toContain("warning");
  });

  it("names the scope and the agent setup was run with, checking that agent's hooks", async () => {
    const agents = "agents:\n  - id: main\n  - id: reviewer\n";
    const { dir, config } = project(`${AUDIT_ONLY}${agents}`);
    expect((await setup(dir, config, "--scope", "local", "--agent", "reviewer")).code).toBe(0);
    // The policy is the reviewer's only: the default agent needs no PreToolUse.
    writeFileSync(
      config,
      `${AUDIT_ONLY}${agents}    policies:\n      - { decision: deny, tool: shell, reason: "no shell" }\n`,
    );
    const stale = await cli(["validate", config]);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain(
      ".claude/settings.local.json runs hookwise for Claude Code on PostToolUse but not on PreToolUse",
    );
    expect(stale.stdout).toContain(
      `hookwise setup claude ${config} --scope local --project ${dir} --agent reviewer`,
    );
  });

  it("finds the entries that name the config through $CLAUDE_PROJECT_DIR, in a project that installed hookwise", async () => {
    const { dir, config, settings } = project(AUDIT_ONLY);
    mkdirSync(join(dir, "node_modules", "hookwise", "bin"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "hookwise", "bin", "hookwise.js"), "");
    expect((await setup(dir, config)).code).toBe(0);
    expect(readFileSync(settings, "utf8")).toContain(
      'hook \\"$CLAUDE_PROJECT_DIR\\"/hookwise.yaml --harness claude',
    );
    writeFileSync(config, WITH_DENY);
    expect((await cli(["validate", config])).stdout).toContain("not on PreToolUse");
    // Not JSON any more: still known as this config's file.
    writeFileSync(settings, `${readFileSync(settings, "utf8")},`);
    expect((await cli(["validate", config])).stdout).toContain("is not JSON");
  });

  it("says nothing for a config never set up, nor for another config's entries", async () => {
    const { dir, config } = project(WITH_DENY);
    expect((await cli(["validate", config])).stdout).not.toContain("warning");
    // Another config of the project was set up; this one was not.
    mkdirSync(join(dir, "ci"));
    writeFileSync(join(dir, "ci", "hookwise.yaml"), AUDIT_ONLY);
    expect((await setup(dir, join(dir, "ci", "hookwise.yaml"))).code).toBe(0);
    writeFileSync(join(dir, "ci", "hookwise.yaml"), WITH_DENY);
    const validated = await cli(["validate", config]);
    expect(validated.code).toBe(0);
    expect(validated.stdout).not.toContain("warning");
    // The config that was set up is the one warned of.
    const ci = await cli(["validate", join(dir, "ci", "hookwise.yaml")]);
    expect(ci.stdout).toContain("not on PreToolUse");
  });

  it("warns, without failing, when a settings file naming the config is not JSON", async () => {
    const { dir, config, settings } = project(AUDIT_ONLY);
    expect((await setup(dir, config)).code).toBe(0);
    writeFileSync(config, WITH_DENY);
    writeFileSync(settings, `${readFileSync(settings, "utf8")},`);
    const validated = await cli(["validate", config]);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe("");
    expect(validated.stdout).toContain(`warning: harness: ${settings} is not JSON (`);
    expect(validated.stdout).toContain("valid (1 warning)");
    // A broken file that names no config of ours is not validate's to report.
    writeFileSync(settings, "{ not json");
    expect((await cli(["validate", config])).stdout).not.toContain("warning");
  });
});
