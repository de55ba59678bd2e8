/**
 * The table of bad configs: each must fail with its exact message, line, column and path,
 * and a good sibling must pass (so a test cannot pass by rejecting everything).
 */
import { describe, expect, it } from "vitest";
import { formatIssue, formatPath } from "../source/config-error.js";
import { validateConfigText } from "./validate-config.js";

interface Case {
  name: string;
  yaml: string;
  /** Expected first error: [line, column, path, message (exact), expected?, suggestion?]. */
  error: [number, number, string, string, string?, string?];
}

const hook = (body: string) => `runtime:\n  hooks:\n    - id: h\n${body}`;

const cases: Case[] = [
  {
    name: "unknown event",
    yaml: hook("      on: tool_strat\n      action: { type: log, message: x }\n"),
    error: [4, 11, "runtime.hooks[0].on", 'unknown event "tool_strat"', undefined, "tool_start"],
  },
  {
    name: "unknown condition",
    yaml: hook(
      "      on: tool_start\n      condition: { type: tool_nam }\n      action: { type: log, message: x }\n",
    ),
    error: [5, 26, "runtime.hooks[0].condition.type", 'unknown condition "tool_nam"', undefined, "tool_name"],
  },
  {
    name: "unknown action",
    yaml: hook("      on: tool_start\n      action: { type: gatee, reason: no }\n"),
    error: [5, 23, "runtime.hooks[0].action.type", 'unknown action "gatee"', undefined, "gate"],
  },
  {
    name: "unknown hook field",
    yaml: hook("      on: tool_start\n      cooldwn: 5\n      action: { type: log, message: x }\n"),
    error: [5, 7, "runtime.hooks[0].cooldwn", 'unknown field "cooldwn"', undefined, "cooldown"],
  },
  {
    name: "unknown action field",
    yaml: hook("      on: tool_start\n      action: { type: gate, reson: no }\n"),
    error: [5, 29, "runtime.hooks[0].action.reson", 'unknown field "reson"', undefined, "reason"],
  },
  {
    name: "unknown condition field",
    yaml: hook(
      "      on: turn_end\n      condition: { type: context_pressure, treshold: 0.5 }\n      action: { type: log, message: x }\n",
    ),
    error: [5, 44, "runtime.hooks[0].condition.treshold", 'unknown field "treshold"', undefined, "threshold"],
  },
  {
    name: "gate off tool_start",
    yaml: hook("      on: tool_end\n      action: { type: gate, reason: no }\n"),
    error: [5, 23, "runtime.hooks[0].action.type", 'action "gate" cannot act on tool_result'],
  },
  {
    name: "transform_params off tool_start",
    yaml: hook(
      "      on: turn_end\n      action: { type: transform_params, transformation: { set: { a: 1 } } }\n",
    ),
    error: [5, 23, "runtime.hooks[0].action.type", 'action "transform_params" cannot act on run_end'],
  },
  {
    name: "transform_result off tool_end",
    yaml: hook(
      "      on: tool_start\n      action: { type: transform_result, transformation: { inject_note: n } }\n",
    ),
    error: [5, 23, "runtime.hooks[0].action.type", 'action "transform_result" cannot act on tool_call'],
  },
  {
    name: "tool_name off tool events",
    yaml: hook(
      "      on: turn_end\n      condition: { type: tool_name, match: x }\n      action: { type: log, message: x }\n",
    ),
    error: [5, 26, "runtime.hooks[0].condition.type", 'condition "tool_name" cannot be evaluated on run_end'],
  },
  {
    name: "malformed CEL",
    yaml: hook(
      '      on: turn_end\n      condition: { type: expression, expr: "turn >" }\n      action: { type: log, message: x }\n',
    ),
    error: [5, 44, "runtime.hooks[0].condition.expr", "malformed CEL expression"],
  },
  {
    name: "max_fires negative",
    yaml: hook("      on: turn_end\n      max_fires: -1\n      action: { type: log, message: x }\n"),
    error: [5, 18, "runtime.hooks[0].max_fires", "-1 is too small", "a number ≥ 0"],
  },
  {
    name: "cooldown not a number",
    yaml: hook("      on: turn_end\n      cooldown: soon\n      action: { type: log, message: x }\n"),
    error: [5, 17, "runtime.hooks[0].cooldown", 'got "soon"', "a number"],
  },
  {
    name: "priority not integer",
    yaml: hook("      on: turn_end\n      priority: 1.5\n      action: { type: log, message: x }\n"),
    error: [5, 17, "runtime.hooks[0].priority", "got 1.5", "a whole number"],
  },
  {
    name: "missing action",
    yaml: hook("      on: turn_end\n"),
    error: [3, 7, "runtime.hooks[0].action", "required field is missing", "a mapping"],
  },
  {
    name: "action without type",
    yaml: hook("      on: turn_end\n      action: { message: x }\n"),
    error: [5, 15, "runtime.hooks[0].action", "an action needs a type"],
  },
  {
    name: "duplicate hook ids",
    yaml: "runtime:\n  hooks:\n    - { id: a, on: turn_end, action: { type: log, message: x } }\n    - { id: a, on: turn_end, action: { type: log, message: y } }\n",
    error: [4, 13, "runtime.hooks[1].id", 'duplicate hook id "a" in this scope (first at runtime.hooks[0])'],
  },
  {
    name: "unknown policy decision",
    yaml: "runtime:\n  policies:\n    - { decision: prompt, tool: run_command }\n",
    error: [3, 19, "runtime.policies[0].decision", 'invalid value "prompt"', "one of deny, allow, ask_user"],
  },
  {
    name: "policy malformed when",
    yaml: "runtime:\n  policies:\n    - { decision: deny, tool: x, when: 'args.a ==' }\n",
    error: [3, 40, "runtime.policies[0].when", "malformed CEL expression"],
  },
  {
    name: "policy without tool",
    yaml: "runtime:\n  policies:\n    - { decision: deny }\n",
    error: [3, 7, "runtime.policies[0].tool", "required field is missing", "a string"],
  },
  {
    name: "broken YAML",
    yaml: "runtime:\n  hooks: [\n    - id: a\n",
    error: [3, 5, "(root)", "YAML syntax"],
  },
  {
    name: "top level not a mapping",
    yaml: "- a\n- b\n",
    error: [1, 1, "(root)", "a config file must be a mapping"],
  },
  {
    name: "unknown top-level key",
    yaml: "agent:\n  - id: a\n",
    error: [1, 1, "agent", 'unknown field "agent"', undefined, "agents"],
  },
  {
    name: "unknown toolset kind",
    yaml: "toolsets:\n  fs: { kind: filesystem }\n",
    error: [2, 15, "toolsets.fs.kind", 'invalid value "filesystem"', "one of module, mcp, builtin"],
  },
  {
    name: "module toolset without path",
    yaml: "toolsets:\n  fs: { kind: module }\n",
    error: [2, 7, "toolsets.fs.path", "required field is missing", "a string"],
  },
  {
    name: "bad model string",
    yaml: "models:\n  default: gpt4\n",
    error: [2, 12, "models.default", 'a model string is "provider:model-id"'],
  },
  {
    name: "agent unknown model",
    yaml: "models:\n  default: scripted:./s.yaml\nagents:\n  - id: a\n    model: defualt\n",
    error: [5, 12, "agents[0].model", 'unknown model "defualt"', undefined, "default"],
  },
  {
    name: "agent unknown field",
    yaml: "agents:\n  - id: a\n    instruction: hi\n",
    error: [3, 5, "agents[0].instruction", 'unknown field "instruction"', undefined, "instructions"],
  },
  {
    name: "duplicate agent ids",
    yaml: "agents:\n  - id: a\n  - id: a\n",
    error: [3, 9, "agents[1].id", 'duplicate agent id "a"'],
  },
  {
    name: "unknown sub-agent",
    yaml: "agents:\n  - id: a\n    tools: [agents.reviewr]\n  - id: reviewer\n    role: specialist\n  - id: other\n",
    error: [
      3,
      13,
      "agents[0].tools[0]",
      'unknown agent "reviewr"',
      "one of agents.reviewer (the agents with role: specialist)",
      "agents.reviewer",
    ],
  },
  {
    name: "manifest other event",
    yaml: '{"hooks": [{"kind": "tool_call", "event": "on_pre_llm", "tool_name": "x"}]}',
    error: [1, 43, "hooks[0].event", 'manifest hooks fire only on on_request_start, not "on_pre_llm"'],
  },
  {
    name: "manifest bad frequency",
    yaml: '{"hooks": [{"event": "on_request_start", "tool_name": "x", "frequency": "sometimes"}]}',
    error: [
      1,
      73,
      "hooks[0].frequency",
      'invalid value "sometimes"',
      "one of always, append_if_changed, once",
    ],
  },
  {
    name: "manifest ttl zero",
    yaml: '{"hooks": [{"event": "on_request_start", "tool_name": "x", "refresh_condition": {"kind": "ttl", "ttl_minutes": 0}}]}',
    error: [1, 112, "hooks[0].refresh_condition.ttl_minutes", "0 is too small", "a number > 0"],
  },
  {
    name: "nested unknown condition",
    yaml: hook(
      "      on: tool_end\n      condition: { type: all_of, conditions: [ { type: tool_failed }, { type: allways } ] }\n      action: { type: log, message: x }\n",
    ),
    error: [
      5,
      79,
      "runtime.hooks[0].condition.conditions[1].type",
      'unknown condition "allways"',
      undefined,
      "always",
    ],
  },
  {
    name: "turn_count with neither",
    yaml: hook(
      "      on: turn_start\n      condition: { type: turn_count }\n      action: { type: log, message: x }\n",
    ),
    error: [5, 18, "runtime.hooks[0].condition", ""],
  },
  {
    name: "inject_message strategy",
    yaml: hook("      on: turn_start\n      action: { type: inject_message, content: x, strategy: loud }\n"),
    error: [
      5,
      61,
      "runtime.hooks[0].action.strategy",
      'invalid value "loud"',
      "one of auto, user, system, new_message",
    ],
  },
  {
    name: "on_error value",
    yaml: hook("      on: turn_end\n      on_error: ignore\n      action: { type: log, message: x }\n"),
    error: [5, 17, "runtime.hooks[0].on_error", 'invalid value "ignore"', "one of fail_closed, fail_open"],
  },
  {
    name: "limit_scope value",
    yaml: hook("      on: turn_end\n      limit_scope: user\n      action: { type: log, message: x }\n"),
    error: [5, 20, "runtime.hooks[0].limit_scope", 'invalid value "user"', "one of session, global"],
  },
  {
    name: "telemetry flag not a boolean",
    yaml: 'runtime:\n  telemetry:\n    record_inputs: "true"\n',
    error: [3, 20, "runtime.telemetry.record_inputs", 'got "true"', "true or false"],
  },
  {
    name: "telemetry field misspelt",
    yaml: "runtime:\n  telemetry:\n    record_output: true\n",
    error: [
      3,
      5,
      "runtime.telemetry.record_output",
      'unknown field "record_output"',
      undefined,
      "record_outputs",
    ],
  },
  {
    name: "telemetry not a mapping",
    yaml: "runtime:\n  telemetry: true\n",
    error: [2, 14, "runtime.telemetry", "got true", "a mapping"],
  },
];

describe("bad configs", () => {
  it("has at least 30 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)("$name", ({ yaml, error }) => {
    const file = yaml.startsWith("{") ? "bad.json" : "bad.yaml";
    const { issues, validated } = validateConfigText(yaml, file);
    expect(validated).toBeUndefined();
    const errors = issues.filter((issue) => issue.severity === "error");
    expect(errors.length).toBeGreaterThan(0);
    const [line, column, path, message, expected, suggestion] = error;
    const found = errors.find((issue) => formatPath(issue.path) === path);
    expect(found, `no error at ${path}; got ${errors.map(formatIssue).join(" | ")}`).toBeDefined();
    expect(found!.message.startsWith(message), `${found!.message} should start with ${message}`).toBe(true);
    expect([found!.line, found!.column]).toEqual([line, column]);
    if (expected !== undefined) expect(found!.expected).toContain(expected);
    if (suggestion !== undefined) expect(found!.suggestion).toBe(suggestion);
    expect(formatIssue(found!)).toMatch(new RegExp(`^${file.replace(".", "\\.")}:${line}:${column}: `));
  });

  it("reports every error at once", () => {
    const yaml = hook("      on: tool_strat\n      cooldown: soon\n      action: { type: gatee }\n");
    const { issues } = validateConfigText(yaml, "bad.yaml");
    expect(
      issues.filter((issue) => issue.severity === "error").map((issue) => formatPath(issue.path)),
    ).toEqual(["runtime.hooks[0].on", "runtime.hooks[0].cooldown", "runtime.hooks[0].action.type"]);
  });

  it("a file that is not YAML gets its first syntax errors, each with its own position once, and a count of the rest", () => {
    const text = Array.from({ length: 40 }, (_, index) => `line ${index} \`code\`: a: b`).join("\n");
    const { issues } = validateConfigText(text, "README.md");
    expect(issues.length).toBeLessThanOrEqual(11);
    for (const issue of issues) expect(issue.message).not.toMatch(/at line \d+, column \d+/);
    expect(issues.at(-1)!.message).toMatch(
      /^YAML syntax: \d+ more errors not listed — does README\.md hold a hookwise config\?$/,
    );
  });

  it("a runtime hook written under top-level hooks: is one error saying where it goes", () => {
    const yaml = "hooks:\n  - id: nodel\n    on: tool_start\n    action: { type: gate }\n";
    const { issues } = validateConfigText(yaml, "h.yaml");
    expect(issues.map((issue) => [formatPath(issue.path), issue.message, issue.expected])).toEqual([
      [
        "hooks[0]",
        "this is a runtime hook (it has on/condition/action), but top-level hooks: holds tool-call injection manifests",
        expect.stringContaining("runtime.hooks"),
      ],
    ]);
  });

  it("accepts the good sibling of each kind of mistake", () => {
    const yaml = `${hook('      on: tool_start\n      cooldown: 5\n      max_fires: 3\n      condition: { type: tool_name, match: "fs.*" }\n      action: { type: gate, reason: no }\n')}  policies:\n    - { decision: deny, tool: x, when: 'args.a == 1' }\n  telemetry: { enabled: true, record_inputs: false, record_outputs: true, function_id: support }\n`;
    const { issues, validated } = validateConfigText(yaml, "good.yaml");
    expect(issues).toEqual([]);
    expect(validated?.appHooks[0]?.on).toBe("tool_call");
  });

  it("leaves tool references to the checks that know the tools (validate and run)", () => {
    const yaml = "toolsets:\n  fs: { kind: module, path: ./t.mjs }\nagents:\n  - id: a\n    tools: [fss.*]\n";
    const { issues, validated } = validateConfigText(yaml, "w.yaml");
    expect(validated).toBeDefined();
    expect(issues).toEqual([]);
  });
});
