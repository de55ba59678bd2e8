import { describe, expect, it } from "vitest";
import { lookup, renderTemplate, renderValue, walkPath } from "./templates.js";
import { modelErrorEvaluation, testEvaluation, toolResultEvaluation } from "./test-evaluation.js";

const WORKSPACE = "/srv/project";

const evaluation = toolResultEvaluation(
  {
    name: "github_get_pr",
    fqn: "github.get_pr",
    params: { owner: "acme", repo: "site", options: { depth: 2, flags: ["a", "b"] } },
    result: {
      user: { login: "alice" },
      files: [{ path: "a.md" }, { path: "b.md" }],
      hits: [{ id: 1 }, { id: 2 }, { id: 3 }],
      count: 3,
      merged: false,
    },
  },
  {
    stats: { turn: 4, tokens: 1234, tools: 7, pressure: 0.4567, messages: 9, max_turns: 30 },
    context: { input: "review PR 7", sessionId: "sess-9", runId: "run-3", agentName: "reviewer" },
  },
);

const render = (template: string, options?: { stats?: boolean }) =>
  renderTemplate(template, evaluation, WORKSPACE, options);

describe("renderTemplate", () => {
  it("fills tool.name and tool.fqn", () => {
    expect(render("{{tool.name}} / {{tool.fqn}}")).toBe("github_get_pr / github.get_pr");
  });

  it("walks params and results with dotted paths and indices (seed 003 example)", () => {
    expect(render("PR by {{tool.result.user.login}}, first file: {{tool.result.files.0.path}}")).toBe(
      "PR by alice, first file: a.md",
    );
    expect(render("{{tool.params.options.depth}} {{tool.params.options.flags.1}}")).toBe("2 b");
    expect(render("{{ tool.params.owner }}")).toBe("acme");
  });

  it("accepts tool.args as a synonym of tool.params", () => {
    expect(render("{{tool.args.repo}}")).toBe("site");
  });

  it("supports negative indices from the end", () => {
    expect(render("{{tool.result.hits.-1.id}} {{tool.result.hits.-3.id}}")).toBe("3 1");
    expect(render("[{{tool.result.hits.-4.id}}]")).toBe("[]");
  });

  it("renders the whole result as JSON", () => {
    expect(JSON.parse(render("{{tool.result}}"))).toEqual(evaluation.tool!.result);
    expect(render("{{tool.result.files.1}}")).toBe('{"path":"b.md"}');
  });

  it("renders tool.error, empty without an error", () => {
    expect(render("[{{tool.error}}]")).toBe("[]");
    const failed = toolResultEvaluation({ name: "w", error: "EACCES: permission denied" });
    expect(renderTemplate("{{tool.error}}", failed, WORKSPACE)).toBe("EACCES: permission denied");
  });

  it("fills run.input, run.id, session.id, agent.name and workspace", () => {
    expect(render("{{run.input}} | {{run.id}} | {{session.id}} | {{agent.name}} | {{workspace}}")).toBe(
      "review PR 7 | run-3 | sess-9 | reviewer | /srv/project",
    );
  });

  it("fills error and error.type on model errors", () => {
    const failed = modelErrorEvaluation("rate_limit");
    expect(renderTemplate("{{error.type}}: {{error}}", failed, WORKSPACE)).toBe(
      "rate_limit: rate_limit happened",
    );
  });

  it("renders missing paths empty and never throws", () => {
    expect(
      render("[{{tool.params.nope}}][{{tool.result.user.login.deeper}}][{{tool.params.options.flags.9}}]"),
    ).toBe("[][][]");
    expect(render("[{{tool.unknown}}][{{nothing.at.all}}][{{session.other}}]")).toBe("[][][]");
    expect(renderTemplate("[{{tool.name}}][{{tool.params.x}}]", testEvaluation(), WORKSPACE)).toBe("[][]");
  });

  it("renders numbers and booleans as text inside a string", () => {
    expect(render("count={{tool.result.count}} merged={{tool.result.merged}}")).toBe("count=3 merged=false");
  });

  it("walks into a result that is a JSON string", () => {
    const stringly = toolResultEvaluation({ name: "t", result: '{"a":{"b":[5,6]}}' });
    expect(renderTemplate("{{tool.result.a.b.-1}}", stringly, WORKSPACE)).toBe("6");
    expect(renderTemplate("{{tool.result}}", stringly, WORKSPACE)).toBe('{"a":{"b":[5,6]}}');
  });

  it("fills {turn} {tokens} {tools} {pressure} {messages} {max_turns} only with stats: true", () => {
    const template =
      "Turn {turn}: {tokens} tokens, {tools} tool calls, pressure {pressure}, {messages}/{max_turns}";
    expect(render(template, { stats: true })).toBe("Turn 4: 1234 tokens, 7 tool calls, pressure 0.46, 9/30");
    expect(render(template)).toBe(template);
  });

  it("fills {{turn}} {{tokens}} … as {turn} {tokens} …: one brace style for every placeholder", () => {
    const template = "Turn {{turn}}: {{ tokens }} tokens, pressure {{pressure}}, {{tool.name}}";
    expect(render(template, { stats: true })).toBe(
      render("Turn {turn}: {tokens} tokens, pressure {pressure}, {{tool.name}}", { stats: true }),
    );
    expect(render(template, { stats: true })).toMatch(/^Turn 4: 1234 tokens, pressure 0\.46, /);
    expect(render("{{turn}}")).toBe("{{turn}}");
  });

  it("leaves other single-brace words alone", () => {
    expect(render('{"json": {name}} {turns}', { stats: true })).toBe('{"json": {name}} {turns}');
  });

  it("does not re-render placeholders found inside filled values", () => {
    const tricky = toolResultEvaluation(
      { name: "t", params: { text: "{turn} and {{tool.name}}" } },
      { stats: { turn: 8 } },
    );
    expect(renderTemplate("{turn}: {{tool.params.text}}", tricky, WORKSPACE, { stats: true })).toBe(
      "8: {turn} and {{tool.name}}",
    );
  });
});

describe("renderValue", () => {
  it("keeps the type of a number or boolean when the string is one placeholder", () => {
    expect(renderValue("{{tool.result.count}}", evaluation, WORKSPACE)).toBe(3);
    expect(renderValue("{{ tool.result.merged }}", evaluation, WORKSPACE)).toBe(false);
    expect(renderValue("n={{tool.result.count}}", evaluation, WORKSPACE)).toBe("n=3");
  });

  it("renders objects as JSON text and missing values as empty strings", () => {
    expect(renderValue("{{tool.result.user}}", evaluation, WORKSPACE)).toBe('{"login":"alice"}');
    expect(renderValue("{{tool.params.nope}}", evaluation, WORKSPACE)).toBe("");
  });

  it("renders recursively through objects and lists, leaving non-strings as they are", () => {
    expect(
      renderValue(
        { path: "{{tool.params.repo}}", list: ["{{tool.result.hits.0.id}}", 5, null], nested: { on: true } },
        evaluation,
        WORKSPACE,
      ),
    ).toEqual({ path: "site", list: [1, 5, null], nested: { on: true } });
  });
});

describe("walkPath / lookup", () => {
  it("walks keys, indices and negative indices", () => {
    const value = { a: [{ b: 1 }, { b: 2 }] };
    expect(walkPath(value, ["a", "-1", "b"])).toBe(2);
    expect(walkPath(value, ["a", "0"])).toEqual({ b: 1 });
    expect(walkPath(value, [])).toBe(value);
  });

  it("returns undefined for missing segments, primitives and inherited keys", () => {
    expect(walkPath({ a: 1 }, ["a", "b"])).toBeUndefined();
    expect(walkPath(null, ["a"])).toBeUndefined();
    expect(walkPath({}, ["constructor"])).toBeUndefined();
    expect(walkPath({}, ["__proto__"])).toBeUndefined();
    expect(walkPath("not json", ["a"])).toBeUndefined();
  });

  it("lookup returns raw values", () => {
    expect(lookup("tool.result.count", evaluation, WORKSPACE)).toBe(3);
    expect(lookup("workspace", evaluation, WORKSPACE)).toBe(WORKSPACE);
  });
});
