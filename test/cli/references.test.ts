// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax these tests write
/**
 * `validate` says what `run` would say: a policy whose tool matches nothing (with the nearest
 * tool), a toolset prefix that does not exist, an agent's `tools:` pattern matching nothing,
 * `module_action` / `pipe` naming a missing tool or toolset, an agent without a model, a
 * missing script file, a hook's `tool_name` condition matching nothing, an injection naming a
 * missing tool, literal action arguments that break the tool's input schema — each a config
 * error at its line:col, exit 2, in `validate` and `run`.
 * MCP tools are known only when the server answers: `validate` warns, `run` refuses (exit 2).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

const MCP_SERVER = resolve(import.meta.dirname, "../fixtures/mcp/stdio-server.mjs");
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-references-"));
  copyFileSync(resolve(import.meta.dirname, "../fixtures/calc/tools.mjs"), join(dir, "tools.mjs"));
  writeFileSync(
    join(dir, "script.yaml"),
    "- tool_calls: [{ name: calc_delete_everything, args: {} }]\n- text: done\n",
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = [
  "models:",
  "  default: scripted:./script.yaml",
  "toolsets:",
  "  calc: { kind: module, path: ./tools.mjs }",
];

function config(...lines: string[]): string {
  const file = join(dir, "hookwise.yaml");
  writeFileSync(file, [...lines, ""].join("\n"));
  return file;
}

/** `validate` and `run` both exit 2 with `expected` (a line of stderr, or part of one), and nothing ran. */
async function refusedByBoth(file: string, expected: string) {
  for (const args of [
    ["validate", file],
    ["run", file, "--prompt", "go"],
  ]) {
    const out = await cli(args);
    expect(out.code, `${args[0]}: ${out.stderr}`).toBe(2);
    expect(out.stderr, args[0]).toContain(expected);
    expect(out.stderr).not.toContain("internal error");
  }
  expect(existsSync(join(dir, "deleted.txt"))).toBe(false);
}

describe("a policy means what it says", () => {
  it("a deny whose tool matches nothing: line:col and the nearest tool; the tool does not run", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  policies:",
      "    - { decision: deny, tool: calc.delete_evrything }",
    );
    await refusedByBoth(
      file,
      `${file}:7:31: runtime.policies[0].tool: deny policy tool "calc.delete_evrything" matches no tool; expected a tool name or pattern over: calc.add, calc.delete_everything; did you mean "calc.delete_everything"?`,
    );
  });

  it("ask_user and allow too, in an agent's policies as in runtime's", async () => {
    const file = config(
      ...HEAD,
      "agents:",
      "  - id: main",
      "    policies:",
      "      - { decision: ask_user, tool: calc.ad }",
      "      - { decision: allow, tool: calc.sub* }",
    );
    const out = await cli(["validate", file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `${file}:8:37: agents[0].policies[0].tool: ask_user policy tool "calc.ad" matches no tool`,
    );
    expect(out.stderr).toContain('did you mean "calc.add"?');
    expect(out.stderr).toContain(
      `${file}:9:34: agents[0].policies[1].tool: allow policy tool "calc.sub*" matches no tool`,
    );
  });

  it("a toolset prefix that does not exist, with the nearest toolset", async () => {
    const file = config(...HEAD, "runtime:", "  policies:", "    - { decision: deny, tool: clac.* }");
    await refusedByBoth(
      file,
      `${file}:7:31: runtime.policies[0].tool: deny policy tool "clac.*": no toolset is named "clac"; expected a toolset declared under toolsets: (calc); did you mean "calc"?`,
    );
  });

  it("the good siblings pass: exact names, globs, *, sub-agents, unprefixed function names", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  policies:",
      "    - { decision: deny, tool: calc.delete_everything }",
      "    - { decision: ask_user, tool: calc.* }",
      '    - { decision: deny, tool: "*" }',
      "    - { decision: allow, tool: calc_add }",
      "    - { decision: allow, tool: agents.helper }",
      "agents:",
      "  - { id: main, tools: [calc.*, agents.helper] }",
      "  - { id: helper, role: specialist, tools: [calc.add] }",
    );
    const out = await cli(["validate", file]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("MCP tools: validate warns (exit 0); run lists them and refuses to start (exit 2)", async () => {
    const file = config(
      ...HEAD,
      `  remote: { kind: mcp, command: ${process.execPath}, args: [${MCP_SERVER}] }`,
      "runtime:",
      "  policies:",
      "    - { decision: deny, tool: remote.ecko }",
      "    - { decision: deny, tool: remote.echo }",
    );
    const validated = await cli(["validate", file]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain(
      `${file}:8:31: warning: runtime.policies[0].tool: deny policy tool "remote.ecko" matches no tool known yet`,
    );
    const run = await cli(["run", file, "--prompt", "go"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${file}:8:31: runtime.policies[0].tool: deny policy tool "remote.ecko" matches no tool;`,
    );
    expect(run.stderr).toContain('did you mean "remote.echo"?');
    expect(run.stderr).not.toContain('remote.echo" matches');
    expect(existsSync(join(dir, "deleted.txt"))).toBe(false);
  });
});

describe("validate says what run would say", () => {
  it("an agent's tools: pattern that matches nothing", async () => {
    const file = config(...HEAD, "agents:", "  - { id: main, tools: [calc.delete_evrything] }");
    await refusedByBoth(
      file,
      `${file}:6:25: agents[0].tools[0]: tools pattern "calc.delete_evrything" matches no tool`,
    );
  });

  it("module_action naming a missing tool", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: audit",
      "      on: tool_end",
      "      action: { type: module_action, module: calc, action: ad }",
    );
    await refusedByBoth(
      file,
      `${file}:9:60: runtime.hooks[0].action.action: module_action tool "calc.ad" names no tool; expected one of: calc.add,`,
    );
  });

  it("call_tool or pipe naming a sub-agent: a hook's call would run it outside its caller's policies", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  policies:",
      "    - { decision: deny, tool: calc.delete_everything }",
      "  hooks:",
      "    - id: delegate",
      "      on: run_start",
      "      action: { type: call_tool, module: agents, action: helper, action_params: { task: tidy } }",
      "agents:",
      "  - { id: main, tools: [calc.add, agents.helper] }",
      "  - { id: helper, role: specialist, tools: [calc.*] }",
    );
    await refusedByBoth(
      file,
      `${file}:11:58: runtime.hooks[0].action.action: call_tool tool "agents.helper" is a sub-agent, which a hook's action cannot call`,
    );
    const piped = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: route",
      "      on: tool_end",
      "      action: { type: pipe, to: agents_helper }",
      "agents:",
      "  - { id: main, tools: [calc.add] }",
      "  - { id: helper, role: specialist, tools: [calc.*] }",
    );
    await refusedByBoth(
      piped,
      `${piped}:9:33: runtime.hooks[0].action.to: pipe to "agents_helper" is a sub-agent, which a hook's action cannot call`,
    );
  });

  it("inject_tool_call and a hooks manifest naming a missing tool or a sub-agent", async () => {
    const action = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: rules",
      "      on: run_start",
      "      action: { type: inject_tool_call, toolset_name: calc, tool_name: ad }",
    );
    await refusedByBoth(
      action,
      `${action}:9:72: runtime.hooks[0].action.tool_name: inject_tool_call tool "calc.ad" names no tool; expected one of: calc.add,`,
    );
    const manifest = config(
      ...HEAD,
      "hooks:",
      "  - { event: on_request_start, tool_name: agents_helper }",
      "agents:",
      "  - { id: main, tools: [calc.add] }",
      "  - { id: helper, role: specialist, tools: [calc.*] }",
    );
    await refusedByBoth(
      manifest,
      `${manifest}:6:43: hooks[0].tool_name: injection tool "agents_helper" is a sub-agent, which a hook's action cannot call`,
    );
    // A static content calls no tool: nothing to check.
    const fixed = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: rules",
      "      on: run_start",
      '      action: { type: inject_tool_call, tool_name: house_rules, content: { strategy: static, value: "be kind" } }',
    );
    const out = await cli(["validate", fixed]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("a pipe to a missing toolset, inside a chain", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: route",
      "      on: tool_end",
      "      action:",
      "        type: chain",
      "        actions:",
      "          - { type: pipe, to: notion.page_create }",
    );
    await refusedByBoth(
      file,
      `${file}:12:31: runtime.hooks[0].action.actions[0].to: pipe to "notion.page_create": no toolset is named "notion"`,
    );
  });

  it("a toolset module that exports no tool", async () => {
    writeFileSync(join(dir, "empty.mjs"), "export const version = 1;\n");
    const file = config(
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  calc: { kind: module, path: ./empty.mjs }",
    );
    await refusedByBoth(
      file,
      `${file}:4:31: toolsets.calc.path: module ./empty.mjs (${join(dir, "empty.mjs")}) exports no tool; expected a module exporting tools`,
    );
  });

  it("an agent with no model", async () => {
    const file = config("agents:", "  - id: writer");
    await refusedByBoth(
      file,
      `${file}:2:9: agents[0].id: agent "writer" has no model; expected a model under models:`,
    );
  });

  it("no agents and no model: the implicit agent has none", async () => {
    const file = config("runtime:", "  max_steps: 3");
    await refusedByBoth(file, `${file}:1:1: (root): the agent "main" has no model: no models are declared`);
  });

  it("--model gives run a model: the same config runs", async () => {
    const file = config("runtime:", "  max_steps: 3");
    writeFileSync(join(dir, "script.yaml"), "- text: hello\n");
    const out = await cli(["run", file, "--model", `scripted:${join(dir, "script.yaml")}`, "--prompt", "hi"]);
    expect(out.code, out.stderr).toBe(0);
  });

  it("a scripted model whose script has an unknown key: its line and column in the script, the nearest key", async () => {
    writeFileSync(
      join(dir, "script.yaml"),
      "- text: hi\n- toolcalls: [{ name: calc_delete_everything, args: {} }]\n",
    );
    const file = config(...HEAD);
    await refusedByBoth(
      file,
      `${join(dir, "script.yaml")}:2:3: [1].toolcalls: entry 2 has unknown key "toolcalls" (the script of models.default); expected one of text, text_deltas, textDeltas, reasoning, toolCalls, tool_calls, error, usage, delayMs, delay_ms; did you mean "tool_calls"?`,
    );
    writeFileSync(join(dir, "script.jsonl"), '{"text":"hi"}\n{"tool_calls":[{"name":"x","arguments":{}}]}\n');
    await refusedByBoth(
      config("models:", "  default: scripted:./script.jsonl"),
      `${join(dir, "script.jsonl")}:2:28: [1].tool_calls[0].arguments: entry 2 tool call 1 has unknown key "arguments"`,
    );
  });

  it("a scripted model whose script file is missing", async () => {
    const file = config("models:", "  default: scripted:./nope.yaml");
    await refusedByBoth(
      file,
      `${file}:2:12: models.default: scripted model: the script file ./nope.yaml does not exist`,
    );
  });

  it("a tool module that is not there: its path's line:col, said once, and no internal file named", async () => {
    const file = config(...HEAD.slice(0, 3), "  calc: { kind: module, path: ./tool.mjs }");
    await refusedByBoth(
      file,
      `${file}:4:31: toolsets.calc.path: cannot load module ./tool.mjs (${join(dir, "tool.mjs")}): no such file`,
    );
    const out = await cli(["validate", file]);
    expect(out.stderr).not.toContain("toolsets.calc: toolsets.calc");
    expect(out.stderr).not.toContain("imported from");
  });
});

describe("a hook's tool_name condition means what it says", () => {
  const gate = (match: string) => [
    "runtime:",
    "  hooks:",
    "    - id: guard",
    "      on: tool_call",
    `      condition: { type: tool_name, match: ${match} }`,
    "      action: { type: gate }",
  ];

  it("a gate whose tool matches nothing: line:col and the nearest tool; the tool does not run", async () => {
    const file = config(...HEAD, ...gate('"calc.delete_evrything"'));
    await refusedByBoth(
      file,
      `${file}:9:44: runtime.hooks[0].condition.match: tool_name condition "calc.delete_evrything" matches no tool; expected a tool name or pattern over: calc.add, calc.delete_everything; did you mean "calc.delete_everything"?`,
    );
  });

  it("each pattern of a list, a glob that matches nothing, a case slip in the toolset", async () => {
    const file = config(...HEAD, ...gate('["calc_delete", "calc.[delete"]'));
    const out = await cli(["validate", file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `${file}:9:45: runtime.hooks[0].condition.match[0]: tool_name condition "calc_delete" matches no tool;`,
    );
    expect(out.stderr).toContain('did you mean "calc_delete_everything"?');
    expect(out.stderr).toContain(
      `${file}:9:60: runtime.hooks[0].condition.match[1]: tool_name condition "calc.[delete" matches no tool;`,
    );
    const slip = config(...HEAD, ...gate('"Calc.*"'));
    await refusedByBoth(
      slip,
      `${slip}:9:44: runtime.hooks[0].condition.match: tool_name condition "Calc.*": no toolset is named "Calc"; expected a toolset declared under toolsets: (calc); did you mean "calc"?`,
    );
  });

  it("inside all_of and an agent's hooks too; an alternation is checked part by part", async () => {
    const file = config(
      ...HEAD,
      "agents:",
      "  - id: main",
      "    hooks:",
      "      - id: guard",
      "        on: tool_call",
      "        condition:",
      "          type: all_of",
      '          conditions: [{ type: tool_name, match: "calc.add|calc.delete_evrything" }]',
      "        action: { type: gate }",
    );
    await refusedByBoth(
      file,
      `${file}:12:50: agents[0].hooks[0].condition.conditions[0].match: tool_name condition "calc.delete_evrything" matches no tool`,
    );
  });

  it("the good siblings pass: globs that match, function names, sub-agents; under not, a warning", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: guard",
      "      on: tool_call",
      '      condition: { type: tool_name, match: ["calc.*", "*.add|calc_delete_everything", "agents.helper"] }',
      "      action: { type: gate }",
      "    - id: others",
      "      on: tool_call",
      '      condition: { type: not, condition: { type: tool_name, match: "calc.ad" } }',
      '      action: { type: log, message: "other tool" }',
      "agents:",
      "  - { id: main, tools: [calc.*, agents.helper] }",
      "  - { id: helper, role: specialist, tools: [calc.add] }",
    );
    const out = await cli(["validate", file]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `${file}:13:68: warning: runtime.hooks[1].condition.condition.match: tool_name condition "calc.ad" matches no tool;`,
    );
  });

  it("MCP tools: validate warns (exit 0); run refuses a pattern that matches none of them (exit 2)", async () => {
    const file = config(
      ...HEAD,
      `  remote: { kind: mcp, command: ${process.execPath}, args: [${MCP_SERVER}] }`,
      ...gate('"remote.ecko|remote.echo"'),
    );
    const validated = await cli(["validate", file]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain(
      `${file}:10:44: warning: runtime.hooks[0].condition.match: tool_name condition "remote.ecko" matches no tool known yet`,
    );
    const run = await cli(["run", file, "--prompt", "go"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${file}:10:44: runtime.hooks[0].condition.match: tool_name condition "remote.ecko" matches no tool;`,
    );
    expect(run.stderr).toContain('did you mean "remote.echo"?');
    expect(run.stderr).not.toContain('"remote.echo" matches');
    expect(existsSync(join(dir, "deleted.txt"))).toBe(false);
  });
});

describe("an injection names a tool, and literal arguments fit it", () => {
  it("inject_tool_call naming a missing tool", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: prime",
      "      on: run_start",
      "      action: { type: inject_tool_call, toolset_name: calc, tool_name: ad }",
    );
    await refusedByBoth(
      file,
      `${file}:9:72: runtime.hooks[0].action.tool_name: inject_tool_call tool "calc.ad" names no tool; expected one of: calc.add,`,
    );
  });

  it("a hooks: injection entry naming a missing tool, with the nearest", async () => {
    const file = config(
      ...HEAD,
      "hooks:",
      "  - { kind: tool_call, event: on_request_start, toolset_name: calc, tool_name: ad }",
    );
    const out = await cli(["validate", file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `${file}:6:80: hooks[0].tool_name: injection tool "calc.ad" names no tool; expected one of: calc.add,`,
    );
    expect(out.stderr).toContain('did you mean "calc.add"?');
  });

  it("MCP tools: validate warns (exit 0); run lists them and refuses an injection naming none of them (exit 2)", async () => {
    const file = config(
      ...HEAD,
      `  remote: { kind: mcp, command: ${process.execPath}, args: [${MCP_SERVER}] }`,
      "runtime:",
      "  hooks:",
      "    - id: prime",
      "      on: run_start",
      "      action: { type: inject_tool_call, toolset_name: remote, tool_name: ecko, arguments: { text: hi } }",
      "hooks:",
      "  - { kind: tool_call, event: on_request_start, toolset_name: remote, tool_name: pidd }",
    );
    const validated = await cli(["validate", file]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toContain(
      `${file}:10:74: warning: runtime.hooks[0].action.tool_name: inject_tool_call tool "remote.ecko" matches no tool known yet`,
    );
    expect(validated.stdout).toContain(
      `${file}:12:82: warning: hooks[0].tool_name: injection tool "remote.pidd" matches no tool known yet`,
    );
    const run = await cli(["run", file, "--prompt", "go"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${file}:10:74: runtime.hooks[0].action.tool_name: inject_tool_call tool "remote.ecko" names no tool;`,
    );
    expect(run.stderr).toContain('did you mean "remote.echo"?');
    expect(run.stderr).toContain(
      `${file}:12:82: hooks[0].tool_name: injection tool "remote.pidd" names no tool;`,
    );
    expect(run.stderr).toContain('did you mean "remote.pid"?');
    expect(existsSync(join(dir, "deleted.txt"))).toBe(false);
  });

  it("a toolset_name for a tool of a prefix: false toolset: the call would miss it", async () => {
    const file = config(
      "models:",
      "  default: scripted:./script.yaml",
      "toolsets:",
      "  calc: { kind: module, path: ./tools.mjs, prefix: false }",
      "hooks:",
      "  - { kind: tool_call, event: on_request_start, toolset_name: calc, tool_name: add }",
    );
    await refusedByBoth(
      file,
      `${file}:6:63: hooks[0].toolset_name: injection tool "calc.add" is called add, not calc_add; expected no toolset_name for a tool of a toolset with prefix: false (tool_name: add)`,
    );
  });

  it("literal call_tool action_params that break the tool's input schema", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: sum",
      "      on: tool_result",
      '      action: { type: call_tool, module: calc, action: add, action_params: { a: "one", bb: 2 } }',
    );
    await refusedByBoth(
      file,
      `${file}:9:76: runtime.hooks[0].action.action_params: call_tool action_params do not fit the input of "calc.add":`,
    );
    const out = await cli(["validate", file]);
    expect(out.stderr).toContain(
      '(it has no field "bb"); expected arguments {a?: number, b?: number}; did you mean "b"?',
    );
  });

  it("templated arguments are checked when the hook fires; a static injection calls no tool", async () => {
    const file = config(
      ...HEAD,
      "runtime:",
      "  hooks:",
      "    - id: sum",
      "      on: tool_result",
      '      action: { type: call_tool, module: calc, action: add, action_params: { a: "{{tool.params.a}}" } }',
      "    - id: note",
      "      on: run_start",
      "      action:",
      "        type: inject_tool_call",
      "        tool_name: house_rules",
      "        content: { strategy: static, value: be kind }",
      "    - id: prime",
      "      on: run_start",
      "      action: { type: inject_tool_call, toolset_name: calc, tool_name: add, arguments: { a: 1 } }",
    );
    const out = await cli(["validate", file]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });
});

describe("a shell action's program", () => {
  const hook = (command: string, cwd?: string) => [
    ...HEAD,
    "runtime:",
    "  hooks:",
    "    - id: audit",
    "      on: tool_start",
    `      action: { type: shell, command: "${command}"${cwd ? `, cwd: "${cwd}"` : ""} }`,
  ];

  it("a relative program that does not exist: line:col, the resolved path, the nearest file; nothing runs", async () => {
    mkdirSync(join(dir, "scripts"));
    writeFileSync(join(dir, "scripts", "audit.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const file = config(...hook("./scripts/audti.sh --check"));
    await refusedByBoth(
      file,
      `${file}:9:39: runtime.hooks[0].action.command: program ./scripts/audti.sh does not exist (${join(dir, "scripts", "audti.sh")}); expected a program relative to the config's folder, an absolute path, or a name on PATH; did you mean "./scripts/audit.sh"?`,
    );
  });

  it("is resolved against cwd, as the command runs", async () => {
    mkdirSync(join(dir, "scripts"));
    writeFileSync(join(dir, "scripts", "audit.sh"), "#!/bin/sh\n", { mode: 0o755 });
    expect((await cli(["validate", config(...hook("./audit.sh", "{{workspace}}/scripts"))])).code).toBe(0);
    await refusedByBoth(
      config(...hook("./scripts/audit.sh", "scripts")),
      "program ./scripts/audit.sh does not exist",
    );
  });

  it("a program that is not executable", async () => {
    writeFileSync(join(dir, "audit.sh"), "#!/bin/sh\n", { mode: 0o644 });
    await refusedByBoth(config(...hook("./audit.sh")), "program ./audit.sh is not executable");
  });
});

describe("an MCP toolset that could not start", () => {
  /**
   * `validate` and `run` exit 2 with every line of `expected` (`run` stops at the first
   * toolset that cannot start: the lines of the first), and nothing ran.
   */
  async function refused(file: string, expected: string[]) {
    for (const args of [
      ["validate", file],
      ["run", file, "--prompt", "go"],
    ]) {
      const out = await cli(args);
      expect(out.code, `${args[0]}: ${out.stdout}`).toBe(2);
      for (const line of args[0] === "run" ? expected.slice(0, 2) : expected)
        expect(out.stderr, args[0]).toContain(line);
    }
    expect(existsSync(join(dir, "deleted.txt"))).toBe(false);
  }

  it("an unset ${VAR} in url, headers, command, args or env: line:col and the variable, never a value", async () => {
    process.env.HOOKWISE_TEST_SET_TOKEN = "sk-present-value-123";
    try {
      const file = config(
        ...HEAD,
        '  gh: { kind: mcp, url: "https://${HOOKWISE_TEST_HOST}/mcp", headers: { Authorization: "Bearer ${HOOKWISE_TEST_NOPE_TOKEN}", X-Ok: "${HOOKWISE_TEST_SET_TOKEN}" } }',
        `  mem: { kind: mcp, command: ${process.execPath}, args: [${MCP_SERVER}, "--token=\${HOOKWISE_TEST_ARG}"], env: { TOKEN: "\${HOOKWISE_TEST_X}", OK: "\${HOOKWISE_TEST_Y:-fine}" } }`,
      );
      await refused(file, [
        `${file}:5:25: toolsets.gh.url: environment variable HOOKWISE_TEST_HOST is not set; expected HOOKWISE_TEST_HOST to be set in the environment hookwise runs in`,
        `${file}:5:88: toolsets.gh.headers.Authorization: environment variable HOOKWISE_TEST_NOPE_TOKEN is not set`,
        "toolsets.mem.args[1]: environment variable HOOKWISE_TEST_ARG is not set",
        "toolsets.mem.env.TOKEN: environment variable HOOKWISE_TEST_X is not set",
      ]);
      const out = await cli(["validate", file]);
      expect(out.stderr).not.toContain("HOOKWISE_TEST_Y");
      expect(out.stderr).not.toContain("sk-present-value-123");
      expect(out.stderr.match(/: \d+ errors/)?.[0]).toBe(": 4 errors");
    } finally {
      delete process.env.HOOKWISE_TEST_SET_TOKEN;
    }
  });

  it("a stdio command written as a path that does not exist, with the nearest file", async () => {
    writeFileSync(join(dir, "memory-server.mjs"), "", { mode: 0o755 });
    const file = config(...HEAD, "  memory: { kind: mcp, command: ./memory-server.js }");
    await refused(file, [
      `${file}:5:33: toolsets.memory.command: MCP server command ./memory-server.js does not exist (${join(dir, "memory-server.js")}); expected a program relative to the config's folder, an absolute path, or a name on PATH (e.g. command: node, args: [./server.js]); did you mean "./memory-server.mjs"?`,
    ]);
  });
});
