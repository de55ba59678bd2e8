/**
 * `hookwise test` cases written as harness hook events: a PreToolUse payload and the decision
 * it must get, answered as `hookwise hook` answers it, events of one case in one session.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import { codeBlocks } from "../support/doc-blocks.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CONFIG = `harness: [claude, gemini]
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
  hooks:
    - id: one-push
      on: tool_call
      condition: { type: expression, expr: 'args.command.startsWith("git push")' }
      max_fires: 1
      action: { type: gate, reason: "one push per session" }
`;

function project(tests: string): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-harness-tests-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  writeFileSync(join(dir, "hookwise.test.yaml"), tests);
  return join(dir, "hookwise.yaml");
}

const PASSING = `tests:
  - name: rm -rf is denied in Claude Code, with Claude Code's answer
    harness: claude
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "rm -rf /" } }
    expect:
      decision: deny
      reason_contains: recursive
      denied: [Bash]
      answer: { hookSpecificOutput: { permissionDecision: deny } }
      exit_code: 0
  - name: a listing is left to Claude Code
    harness: claude
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "ls" } }
    expect: { decision: none, ran: [shell], hook_fired: { id: policy, times: 1 } }
  - name: the same policy guards Gemini CLI's shell
    harness: gemini
    events:
      - { hook_event_name: BeforeTool, tool_name: run_shell_command, tool_input: { command: "rm -rf ~" } }
    expect: { decision: deny, answer: { decision: deny }, not_ran: [run_shell_command] }
`;

describe("hookwise test: cases as harness events", () => {
  it("answers each case's events as hookwise hook does and checks decision, reason, answer and exit code", async () => {
    const config = project(PASSING);
    const result = await cli(["test", config]);
    expect(result.stdout).toContain("3 test(s), 0 failed");
    expect(result.code).toBe(0);
  });

  it("events of one case share a session: max_fires holds over them", async () => {
    const config = project(`tests:
  - name: the second push is allowed through once the gate has fired
    harness: claude
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "git push" } }
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "git push --force" } }
    expect: { decisions: [deny, none], hook_fired: { id: one-push, times: 1 } }
`);
    const result = await cli(["test", config]);
    expect(result.stdout).toContain("1 test(s), 0 failed");
  });

  it("fails with expected and actual when the decision is not the expected one", async () => {
    const config = project(`tests:
  - name: wrongly expects a listing to be denied
    harness: claude
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "ls" } }
    expect: { decision: deny, reason_contains: "nope", answer: { hookSpecificOutput: { permissionDecision: deny } } }
`);
    const result = await cli(["test", config, "--json"]);
    expect(result.code).toBe(1);
    const failures = JSON.parse(result.stdout).tests[0].failures;
    expect(failures.map((failure: { expectation: string }) => failure.expectation)).toEqual([
      "decision",
      "reason_contains",
      "answer",
    ]);
    expect(failures[0]).toMatchObject({ expected: "deny", actual: "none" });
  });

  it("refuses an event the harness does not send, a tool name of no harness tool, and a case of two harnesses' config without harness:", async () => {
    const config = project(`tests:
  - name: not an event
    harness: claude
    events:
      - { hook_event_name: BeforeTool, tool_name: Bash, tool_input: { command: "ls" } }
    expect: { decision: none }
`);
    const bad = await cli(["test", config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /hookwise\.test\.yaml:5:\d+: tests\[0\]\.events\[0\]: Claude Code event: "BeforeTool" is not a Claude Code hook event hookwise answers \(/,
    );

    const misnamed = project(`tests:
  - name: names a tool Claude Code does not have
    harness: claude
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "ls" } }
    expect: { not_ran: [Bsh] }
`);
    const named = await cli(["test", misnamed]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('did you mean "Bash"');

    const which = project(`tests:
  - name: which harness?
    events:
      - { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "ls" } }
    expect: { decision: none }
`);
    const unsaid = await cli(["test", which]);
    expect(unsaid.code).toBe(2);
    expect(unsaid.stderr).toContain("say which harness sends this case's events (harness: claude)");
  });

  it("refuses a harness expectation on a prompt case, where it could never be checked", async () => {
    const config = project(`tests:
  - name: a prompt has no harness answer
    prompt: hello
    model: [{ text: hi }]
    expect: { decision: deny }
`);
    const result = await cli(["test", config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /tests\[0\]\.expect\.decision: decision is what a harness hook event was answered: it needs events:/,
    );
  });
});

describe("the harness cases of docs/replay.md", () => {
  it("pass against the config they sit in, as the page writes it", async () => {
    const documented = codeBlocks(resolve(import.meta.dirname, "../../docs/replay.md")).find((block) =>
      block.code.includes("id: first-push-waits"),
    )!.code;
    const dir = mkdtempSync(join(tmpdir(), "hookwise-harness-tests-"));
    dirs.push(dir);
    writeFileSync(join(dir, "hookwise.yaml"), documented);
    const result = await cli(["test", join(dir, "hookwise.yaml")]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("2 test(s), 0 failed");
    expect(result.code).toBe(0);
  });
});
