import { describe, expect, it } from "vitest";
import type { Flow } from "../../../hooks/flow.js";
import type { Evaluation } from "../../build/evaluation.js";
import {
  modelRequestEvaluation,
  testEvaluation,
  testServices,
  toolResultEvaluation,
} from "../../build/test-evaluation.js";
import { compileAction, HOOK_FAILURES, type HookFailure } from "../index.js";
import { signalsProblem } from "../injection/signals-problem.js";
import { appendNote } from "../notes/append-note.js";

function run(action: unknown, evaluation: Evaluation, services = testServices()) {
  return compileAction(action, services, ["action"]).run(evaluation) as Promise<Flow | undefined>;
}

const edited = () =>
  toolResultEvaluation({
    name: "fs_write_file",
    fqn: "fs.write_file",
    params: { path: "src/a.ts", owner: "acme", n: 3 },
    result: { commit: { sha: "abc123" }, hits: [{ title: "first" }, { title: "last" }] },
  });

describe("call_tool (module_action)", () => {
  it("calls module.action with templated params, keeping a whole {{…}} number a number", async () => {
    const services = testServices("/w", { "memory.remember": () => "ok" });
    for (const type of ["call_tool", "module_action"]) {
      const flow = await run(
        {
          type,
          module: "memory",
          action: "remember",
          action_params: { content: "edited {{tool.params.path}}", count: "{{tool.params.n}}", tags: ["x"] },
        },
        edited(),
        services,
      );
      expect(flow).toBeUndefined();
    }
    expect(services.calls).toEqual([
      { name: "memory.remember", args: { content: "edited src/a.ts", count: 3, tags: ["x"] } },
      { name: "memory.remember", args: { content: "edited src/a.ts", count: 3, tags: ["x"] } },
    ]);
  });

  it("a failing call is the hook's failure", async () => {
    await expect(run({ type: "call_tool", module: "nope", action: "x" }, edited())).rejects.toThrow(
      'unknown tool "nope.x"',
    );
  });
});

describe("call_tool_inject (module_action_inject)", () => {
  const lint = (result: unknown) => testServices("/w", { "lsp.diagnostics": () => result });
  const action = (format: "auto" | "always") => ({
    type: "module_action_inject",
    module: "lsp",
    action: "diagnostics",
    action_params: { path: "{{tool.params.path}}" },
    format,
    prefix: "[Lint] ",
  });

  it("format auto: nothing when the result is clean; the problem, prefixed, when it is not", async () => {
    expect(
      await run(action("auto"), edited(), lint({ diagnostics: [], summary: "no problems" })),
    ).toBeUndefined();
    const flow = await run(
      action("auto"),
      edited(),
      lint({ diagnostics: [{ severity: 1 }], summary: "1 problem in src/a.ts: TS2322" }),
    );
    expect(flow).toEqual({
      type: "rewriteResult",
      result: {
        commit: { sha: "abc123" },
        hits: [{ title: "first" }, { title: "last" }],
        hook_notes: ["[Lint] 1 problem in src/a.ts: TS2322"],
      },
    });
  });

  it("format always injects every time; a text result gets the note after it", async () => {
    const evaluation = toolResultEvaluation({ name: "t", params: { path: "a" }, result: "wrote a" });
    expect(await run(action("always"), evaluation, lint("all good"))).toEqual({
      type: "rewriteResult",
      result: "wrote a\n\n[Lint] all good",
    });
  });

  it("on model_request: extra context of the outbound copy; on run_start: a persisted message", async () => {
    const services = lint("error: broken build");
    expect(await run(action("auto"), modelRequestEvaluation(), services)).toEqual({
      type: "patch",
      patch: { extraContext: [{ id: "test-hook", text: "[Lint] error: broken build" }] },
    });
    const runStart = testEvaluation({ event: { type: "run_start", agentPath: ["main"], input: "hi" } });
    expect(await run(action("auto"), runStart, services)).toEqual({
      type: "inject",
      messages: [{ role: "user", content: "[Lint] error: broken build" }],
    });
  });

  it("a failing call is logged and injects nothing (the result is never withheld)", async () => {
    const services = testServices();
    expect(await run(action("always"), edited(), services)).toBeUndefined();
    expect(services.logs.map((line) => `${line.level} ${line.message}`)).toEqual([
      'warn hook "test-hook": lsp.diagnostics failed, nothing injected: unknown tool "lsp.diagnostics"',
    ]);
  });

  it("needs module and action", () => {
    expect(() => compileAction({ type: "call_tool_inject" }, testServices(), ["a"])).toThrow(/module/);
  });
});

describe("pipe", () => {
  it("map is templated (nested, negative index, whole JSON), extra is literal and wins", async () => {
    const services = testServices("/w", { "notion.page.create": () => "created" });
    await run(
      {
        type: "pipe",
        to: "notion.page.create",
        map: {
          title: "{{tool.result.hits.0.title}}",
          last: "{{tool.result.hits.-1.title}}",
          payload: "{{tool.result}}",
          force: "templated",
        },
        extra: { force: true, note: "{{not.templated}}" },
      },
      edited(),
      services,
    );
    expect(services.calls).toEqual([
      {
        name: "notion.page.create",
        args: {
          title: "first",
          last: "last",
          payload: '{"commit":{"sha":"abc123"},"hits":[{"title":"first"},{"title":"last"}]}',
          force: true,
          note: "{{not.templated}}",
        },
      },
    ]);
  });

  it("on_error: ignore (default) and log; upstream failure counts as a failure", async () => {
    const services = testServices();
    const failedUpstream = toolResultEvaluation({ name: "ci", fqn: "ci.build", error: "red", result: "x" });
    expect(await run({ type: "pipe", to: "x.y" }, edited(), services)).toBeUndefined();
    expect(await run({ type: "pipe", to: "x.y", on_error: "log" }, failedUpstream, services)).toBeUndefined();
    expect(services.calls.map((call) => call.name)).toEqual(["x.y"]); // not called after an upstream failure
    expect(services.logs.map((line) => `${line.level} ${line.message}`)).toEqual([
      'debug pipe to x.y (hook "test-hook"): unknown tool "x.y"',
      'warn pipe to x.y (hook "test-hook"): upstream tool ci.build failed: red',
    ]);
  });

  it("on_error: raise aborts an enclosing chain even without stop_on_failure", async () => {
    const services = testServices("/w", { "slack.send_message": () => "sent" });
    const evaluation = edited();
    await expect(
      run(
        {
          type: "chain",
          actions: [
            {
              type: "pipe",
              to: "ci.trigger_build",
              map: { sha: "{{tool.result.commit.sha}}" },
              on_error: "raise",
            },
            { type: "pipe", to: "slack.send_message", map: { text: "started" } },
          ],
        },
        evaluation,
        services,
      ),
    ).rejects.toThrow('pipe to ci.trigger_build (hook "test-hook"): unknown tool "ci.trigger_build"');
    expect(services.calls.map((call) => call.name)).toEqual(["ci.trigger_build"]);
    expect(evaluation.context.scratch.run.get<HookFailure[]>(HOOK_FAILURES)).toEqual([
      {
        hook: "test-hook",
        action: "pipe",
        error: 'pipe to ci.trigger_build (hook "test-hook"): unknown tool "ci.trigger_build"',
      },
    ]);
  });
});

describe("signalsProblem and appendNote", () => {
  it.each([
    [{ isError: true }, true],
    [{ ok: false }, true],
    [{ errors: ["x"] }, true],
    [{ errors: [] }, false],
    [{ diagnostics: [{ message: "m" }] }, true],
    [{ status: "FAILED" }, true],
    [{ exit_code: 2 }, true],
    [{ exitCode: 0 }, false],
    ["Error: cannot find module", true],
    ["no errors found", false],
    ["0 problems", false],
    ["all good", false],
    [[{ severity: 2, message: "unused" }], true],
    [["fine"], false],
    [null, false],
  ])("%j → %s", (result, expected) => {
    expect(signalsProblem(result)).toBe(expected);
  });

  it("keeps structure: objects and JSON object text get hook_notes; other results get text", () => {
    expect(appendNote({ a: 1 }, "n1")).toEqual({ a: 1, hook_notes: ["n1"] });
    expect(appendNote({ a: 1, hook_notes: ["n1"] }, "n2")).toEqual({ a: 1, hook_notes: ["n1", "n2"] });
    expect(appendNote('{"a":1}', "n")).toEqual({ a: 1, hook_notes: ["n"] });
    expect(appendNote("wrote a.ts", "n")).toBe("wrote a.ts\n\nn");
    expect(appendNote([1, 2], "n")).toBe("[1,2]\n\nn");
    expect(appendNote(undefined, "n")).toBe("n");
  });
});
