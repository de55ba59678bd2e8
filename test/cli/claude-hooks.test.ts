/**
 * `hookwise run --claude-settings .claude/settings.json`, `claude_hooks:` in a config,
 * `validate` and `explain`: a Claude Code project's hooks, taken as they are, guarding an
 * agent the CLI runs (a scripted model; a Bash tool that really runs its commands).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, cliProcess } from "../support/cli.js";

const FIXTURE = resolve(import.meta.dirname, "../fixtures/claude-hooks/project");

let base: string;
let dir: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "hookwise-claude-cli-"));
  dir = join(base, "project");
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function config(extra = ""): string {
  const file = join(dir, "hookwise.yaml");
  writeFileSync(
    file,
    [
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  fs: { kind: builtin, module: filesystem, root: . }",
      "  shell: { kind: module, path: ./shell-tools.mjs, prefix: false }",
      extra,
    ].join("\n"),
  );
  return file;
}

function script(steps: string[]): void {
  writeFileSync(join(dir, "script.yaml"), steps.join("\n"));
}

const bash = (command: string) => `  - { name: Bash, args: { command: ${JSON.stringify(command)} } }`;

describe("hookwise run --claude-settings", () => {
  it("a .claude/settings.json as is: blocks, denies, rewrites, adds context and keeps the agent going (--json)", async () => {
    script([
      "- tool_calls:",
      bash("rm -rf build"),
      "  - { name: fs_read_file, args: { path: .env } }",
      bash("python -c 'print(6*7)'"),
      "- text: done",
      "- tool_calls:",
      bash("sh run-tests.sh"),
      "- text: all done, tests pass",
    ]);
    const out = await cliProcess([
      "run",
      config(),
      "--claude-settings",
      join(dir, ".claude", "settings.json"),
      "--prompt",
      "tidy up",
      "--json",
    ]);
    expect(out.stderr).not.toContain("error");
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("all done, tests pass");
    // Its blocks stop the tools.
    expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
    const [rm, env, python] = result.steps[0].toolResults;
    expect(rm).toMatchObject({ executed: false, isError: true });
    expect(rm.result).toContain("rm -rf) is not allowed here");
    expect(env).toMatchObject({ executed: false, isError: true });
    expect(env.result).toContain(".env holds secrets");
    expect(out.stdout).not.toContain("sk-test-very-secret");
    // Its rewrites change the arguments.
    expect(python).toMatchObject({
      executed: true,
      result: "42\n",
      args: { command: "python3 -c 'print(6*7)'" },
    });
    // Its context reaches the model.
    expect(result.requests[0].messages[1]).toEqual({
      role: "user",
      content: "Conventions: Python code uses python3 and pytest. (prompt: 7 characters)",
    });
    // The Stop hook sent the agent back once, to run the tests.
    expect(result.requests).toHaveLength(4);
    expect(result.requests[2].messages.at(-1)).toEqual({
      role: "user",
      content: "Run the tests (sh run-tests.sh) before you finish.",
    });
    // Every decision is in the trace with the script's name and its reason.
    const decisions = result.events
      .filter((entry: { effect: string }) => ["deny", "allow", "rewriteArgs", "retry"].includes(entry.effect))
      .map((entry: { hook: string; effect: string; detail?: unknown }) => [
        entry.hook,
        entry.effect,
        entry.detail,
      ]);
    expect(decisions).toEqual([
      [".claude/settings.json:PreToolUse[0][0] block-rm.sh", "deny", expect.stringContaining("rm -rf")],
      [
        ".claude/settings.json:PreToolUse[1][0] protect-env.py",
        "deny",
        expect.stringContaining(".env holds secrets"),
      ],
      [
        ".claude/settings.json:PreToolUse[0][1] rewrite-python.mjs",
        "rewriteArgs",
        { command: "python3 -c 'print(6*7)'" },
      ],
      [".claude/settings.json:PreToolUse[0][1] rewrite-python.mjs", "allow", undefined],
      [
        ".claude/settings.json:Stop[0][0] require-tests.py",
        "retry",
        "Run the tests (sh run-tests.sh) before you finish.",
      ],
    ]);
    // The transcript the Stop hook read is beside the config, as Claude Code's JSONL.
    const transcript = join(dir, ".hookwise", "claude-transcripts", `${result.sessionId}.jsonl`);
    expect(readFileSync(transcript, "utf8")).toContain('"type":"tool_use","id"');
  }, 90_000);

  it("human output (the streaming surface) shows the Claude Code hooks firing", async () => {
    script(["- tool_calls:", bash("rm -rf build"), "- tool_calls:", bash("sh run-tests.sh"), "- text: done"]);
    const out = await cli([
      "run",
      config(),
      "--claude-settings",
      join(dir, ".claude", "settings.json"),
      "--prompt",
      "clean",
    ]);
    expect(out.code).toBe(0);
    expect(existsSync(join(dir, "build", "app.bin"))).toBe(true);
    expect(out.stdout).toContain(
      "⚑ hook .claude/settings.json:PreToolUse[0][0] block-rm.sh [decide on tool_call] → deny",
    );
    expect(out.stdout).toContain("3 passed");
  });

  it("claude_hooks_failure: closed — a crashing hook and a hung one block the call; open lets it through", async () => {
    writeFileSync(
      join(dir, "guards.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/crash.mjs' }],
            },
          ],
          PostToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hang.sh', timeout: 1 },
              ],
            },
          ],
        },
        env: { HANG_PIDS_FILE: join(base, "pids") },
      }),
    );
    script(["- tool_calls:", bash("echo hi > touched.txt"), "- text: done"]);
    const closed = await cli([
      "run",
      config("claude_hooks: guards.json\nclaude_hooks_failure: closed"),
      "--prompt",
      "go",
      "--json",
    ]);
    expect(closed.code).toBe(0);
    expect(existsSync(join(dir, "touched.txt"))).toBe(false);
    const blocked = JSON.parse(closed.stdout).steps[0].toolResults[0];
    expect(blocked.result).toMatch(
      /hook "guards.json:PreToolUse\[0\]\[0\] crash.mjs" .*exited with code 1.*failed closed/s,
    );

    const open = await cli(["run", config("claude_hooks: guards.json"), "--prompt", "go", "--json"]);
    expect(open.code).toBe(0);
    expect(existsSync(join(dir, "touched.txt"))).toBe(true);
    const events = JSON.parse(open.stdout).events;
    expect(events).toContainEqual(
      expect.objectContaining({ hook: "guards.json:PreToolUse[0][0] crash.mjs", effect: "fail_open" }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        hook: "guards.json:PostToolUse[0][0] hang.sh",
        effect: "fail_open",
        detail: expect.stringContaining("timed out after 1 s"),
      }),
    );
    expect(open.stderr).toContain("failed open");
  });
});

describe("validate and explain with claude_hooks", () => {
  it("explain lists each Claude Code hook with the event it maps to", async () => {
    const out = await cli(["explain", config("claude_hooks: .claude/settings.json")]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    const line = (text: string) => lines.find((item) => item.includes(text)) ?? "";
    expect(line("block-rm.sh [transform]")).toContain(
      'Claude Code PreToolUse matcher "Bash" → tool_call · "$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh · timeout 10s, failure open',
    );
    expect(line("block-rm.sh [decide]")).toContain("Claude Code PreToolUse");
    expect(line("add-context.sh")).toContain("Claude Code UserPromptSubmit → run_start");
    expect(line("require-tests.py")).toContain("Claude Code Stop → run_end");
    expect(line("protect-env.py [decide]")).toContain('matcher "Read|Edit|Write"');
    expect(line("claude-hooks:additionalContext")).toContain("additionalContext");
    // Under their hookwise events, in dispatch order.
    expect(lines.indexOf("  tool_call")).toBeLessThan(
      lines.findIndex((item) => item.includes("block-rm.sh")),
    );
  });

  it("validate lists unsupported events and unknown fields as warnings at their place, and rejects what cannot run", async () => {
    const settings = join(dir, ".claude", "settings.local.json");
    writeFileSync(
      settings,
      JSON.stringify(
        {
          hooks: {
            TeammateIdle: [{ hooks: [{ type: "command", command: "true" }] }],
            PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "true", colour: "red" }] }],
          },
        },
        null,
        2,
      ),
    );
    script(["- text: ok"]);
    const ok = await cli([
      "validate",
      config("claude_hooks: [.claude/settings.json, .claude/settings.local.json]"),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(
      `${settings}:3:5: warning: hooks.TeammateIdle: unsupported Claude Code event "TeammateIdle": its hooks do not run; expected one of PreToolUse,`,
    );
    expect(ok.stdout).toMatch(
      /settings.local.json:\d+:\d+: warning: hooks.PostToolUse\[0\].hooks\[0\].colour: unknown field "colour"/,
    );
    expect(ok.stdout).toContain("valid (2 warnings)");

    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash(", hooks: [] }] } }));
    const bad = await cli([
      "validate",
      config("claude_hooks: [.claude/settings.json, .claude/settings.local.json, missing.json]"),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("claude_hooks[2]: Claude Code settings file missing.json does not exist");
    expect(bad.stderr).toMatch(
      /settings.local.json:1:\d+: hooks.PreToolUse\[0\].matcher: matcher "Bash\(" is not a valid regular expression/,
    );
    // run refuses what validate refuses.
    const run = await cli(["run", join(dir, "hookwise.yaml"), "--prompt", "x"]);
    expect(run.code).toBe(2);
  });

  it("a command whose script is missing and a misspelled event are errors of validate and run; the guarded tool does not run", async () => {
    const settings = join(dir, ".claude", "settings.local.json");
    writeFileSync(
      settings,
      JSON.stringify(
        {
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/blok-rm.sh' }],
              },
              {
                matcher: "Read",
                hooks: [
                  { type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/protect.py' },
                ],
              },
            ],
            PreToolUs: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }],
          },
        },
        null,
        2,
      ),
    );
    script(["- tool_calls:", bash("echo hi > touched.txt"), "- text: done"]);
    const file = config("claude_hooks: .claude/settings.local.json");
    for (const args of [
      ["validate", file],
      ["run", file, "--prompt", "go"],
    ]) {
      const out = await cli(args);
      expect(out.code, args[0]).toBe(2);
      expect(out.stderr).toContain(
        `${settings}:9:24: hooks.PreToolUse[0].hooks[0].command: the command's program .claude/hooks/blok-rm.sh does not exist; expected a file in the project folder (${dir}), "$CLAUDE_PROJECT_DIR"/… or relative to it; did you mean "block-rm.sh"?`,
      );
      expect(out.stderr).toContain(
        "hooks.PreToolUse[1].hooks[0].command: the command's script .claude/hooks/protect.py does not exist",
      );
      expect(out.stderr).toMatch(
        /settings.local.json:\d+:\d+: hooks.PreToolUs: unknown Claude Code event "PreToolUs"; expected one of PreToolUse, .*; did you mean "PreToolUse"\?/,
      );
    }
    expect(existsSync(join(dir, "touched.txt"))).toBe(false);
  });

  it("a tool matcher that matches none of the config's tools is a warning of validate (Claude Code runs such files too)", async () => {
    const settings = join(dir, ".claude", "settings.local.json");
    writeFileSync(
      settings,
      JSON.stringify(
        { hooks: { PreToolUse: [{ matcher: "Raed", hooks: [{ type: "command", command: "true" }] }] } },
        null,
        2,
      ),
    );
    script(["- text: ok"]);
    const out = await cli(["validate", config("claude_hooks: .claude/settings.local.json")]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `${settings}:5:20: warning: hooks.PreToolUse[0].matcher: matcher "Raed" matches none of this config's tools: its hooks never run here; expected a name among Read, Write, Edit,`,
    );
    expect(out.stdout).toContain('did you mean "Read"?');
    expect(out.stdout).toContain("valid (1 warning)");
  });
});

describe("matchers see the names a model and a hook see", () => {
  it("a matcher naming a prefix: false tool by its own name fires (validate does not warn), and by its qualified name too", async () => {
    writeFileSync(
      join(dir, "guard-tools.mjs"),
      `import { appendFileSync } from "node:fs";
export const guarded = {
  description: "Writes a line",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  execute: () => { appendFileSync(${JSON.stringify(join(dir, "ran.txt"))}, "ran\\n"); return "ran"; },
};
`,
    );
    const file = join(dir, "hookwise.yaml");
    const settings = (matcher: string) => {
      writeFileSync(
        join(dir, "guard-settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher, hooks: [{ type: "command", command: "echo 'guarded stays shut' >&2; exit 2" }] },
            ],
          },
        }),
      );
      return join(dir, "guard-settings.json");
    };
    writeFileSync(
      file,
      [
        "models:",
        "  default: scripted:./script.yaml",
        "toolsets:",
        "  g: { kind: module, path: ./guard-tools.mjs, prefix: false }",
        "",
      ].join("\n"),
    );
    script(["- tool_calls:", "  - { name: guarded, args: {} }", "- text: done"]);
    for (const matcher of ["guarded", "g.guarded"]) {
      const path = settings(matcher);
      writeFileSync(
        file,
        `${readFileSync(file, "utf8").split("claude_hooks:")[0]}claude_hooks: [${JSON.stringify(path)}]\n`,
      );
      const validated = await cli(["validate", file]);
      expect(validated.code, validated.stderr).toBe(0);
      expect(validated.stdout + validated.stderr, matcher).not.toContain("matches none");
      const out = await cli(["run", file, "--prompt", "go", "--json"]);
      expect(out.code, out.stderr).toBe(0);
      const result = JSON.parse(out.stdout);
      expect(result.steps[0].toolResults[0], matcher).toMatchObject({ executed: false, isError: true });
      expect(result.steps[0].toolResults[0].result).toContain("guarded stays shut");
      expect(existsSync(join(dir, "ran.txt")), matcher).toBe(false);
    }
  });
});

describe('PreToolUse {"decision":"approve"}', () => {
  it("is an allow: the trace shows it and the tool runs", async () => {
    writeFileSync(
      join(dir, "approve-settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `echo '{"decision":"approve","reason":"fine"}'` }],
            },
          ],
        },
      }),
    );
    script(["- tool_calls:", bash("echo approved-run"), "- text: done"]);
    const out = await cli([
      "run",
      config(),
      "--claude-settings",
      join(dir, "approve-settings.json"),
      "--prompt",
      "go",
      "--json",
    ]);
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.steps[0].toolResults[0]).toMatchObject({ executed: true, result: "approved-run\n" });
    expect(result.events).toContainEqual(
      expect.objectContaining({ event: "tool_call", kind: "decide", effect: "allow" }),
    );
  });
});
