import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { AnyEventPayload } from "../../events/payloads.js";
import type { Flow } from "../../hooks/flow.js";
import { HookTimedOut } from "../../hooks/invoke-hook.js";
import type { Evaluation } from "../build/evaluation.js";
import {
  modelRequestEvaluation,
  testEvaluation,
  testRequest,
  testServices,
  toolCallEvaluation,
  toolResultEvaluation,
} from "../build/test-evaluation.js";
import {
  ACTIONS,
  actionEvents,
  actionKind,
  actionTypes,
  compileAction,
  HOOK_FAILURES,
  type HookFailure,
} from "./index.js";

/** Services whose logger throws on messages containing "explode": a failing outside world. */
function explodingServices() {
  const services = testServices();
  const info = services.log.info;
  services.log.info = (message, detail) => {
    if (message.includes("explode")) throw new Error(`logger down: ${message}`);
    info(message, detail);
  };
  return services;
}

function run(action: unknown, evaluation: Evaluation, services = testServices()) {
  return compileAction(action, services, ["action"]).run(evaluation) as
    | Promise<Flow | undefined>
    | Flow
    | undefined;
}

const runStart = (): AnyEventPayload => ({ type: "run_start", agentPath: ["main"], input: "hi" });

describe("registry", () => {
  it("lists this issue's actions", () => {
    expect(actionTypes()).toEqual([
      "inject_message",
      "log",
      "gate",
      "transform_params",
      "transform_result",
      "chain",
      "notify",
      "inject_tool_call",
      "compact_context",
      "call_tool",
      "call_tool_inject",
      "pipe",
      "shell",
      "lsp_diagnose",
    ]);
  });

  it("maps every type and alias to its module, and nothing else", () => {
    const names = [...ACTIONS.keys()].sort();
    const expected = actionTypes().flatMap((type) => [type, ...(ACTIONS.get(type)!.aliases ?? [])]);
    expect(names).toEqual(expected.sort());
    for (const [name, module] of ACTIONS) expect([module.type, ...(module.aliases ?? [])]).toContain(name);
  });

  it("every module's example validates, has a description, and compiles", () => {
    for (const type of actionTypes()) {
      const module = ACTIONS.get(type)!;
      expect(module.schema.safeParse(module.example).success, type).toBe(true);
      expect(module.description.length, type).toBeGreaterThan(0);
      expect(() => compileAction(module.example, testServices(), ["example"]), type).not.toThrow();
    }
  });

  it("an unknown type throws naming the path and the valid types", () => {
    expect(() =>
      compileAction({ type: "module_acton" }, testServices(), ["runtime", "hooks", 0, "action"]),
    ).toThrow(
      /runtime\.hooks\[0\]\.action: unknown action type "module_acton"; valid types: inject_message, log, gate/,
    );
    expect(() => compileAction({ message: "x" }, testServices(), ["action"])).toThrow(
      /action: an action needs a type/,
    );
  });

  it("schemas are strict and validated at compile time", () => {
    expect(() =>
      compileAction({ type: "log", message: "x", level: "loud" }, testServices(), ["action"]),
    ).toThrow(/invalid log action: action\.level/);
    expect(() => compileAction({ type: "gate", reason: "x", extra: 1 }, testServices(), ["action"])).toThrow(
      /invalid gate action/,
    );
  });

  it("declares kinds and events", () => {
    const kinds = Object.fromEntries(
      actionTypes().map((type) => [type, actionKind(ACTIONS.get(type)!.example)]),
    );
    expect(kinds).toEqual({
      inject_message: "transform",
      log: "inspect",
      gate: "decide",
      transform_params: "transform",
      transform_result: "transform",
      chain: "inspect",
      notify: "inspect",
      inject_tool_call: "transform",
      compact_context: "transform",
      call_tool: "inspect",
      call_tool_inject: "transform",
      pipe: "inspect",
      shell: "inspect",
      lsp_diagnose: "transform",
    });
    expect(ACTIONS.get("gate")!.events).toEqual(["tool_call", "agent_spawn", "run_start", "run_end"]);
    expect(ACTIONS.get("transform_params")!.events).toEqual(["tool_call"]);
    expect(ACTIONS.get("transform_result")!.events).toEqual(["tool_result"]);
    expect(ACTIONS.get("log")!.events).toBe("any");
    expect(ACTIONS.get("notify")!.events).toBe("any");
    expect(ACTIONS.get("inject_message")!.events).toEqual([
      "session_start",
      "run_start",
      "step_start",
      "step_end",
      "run_end",
      "model_request",
    ]);
  });
});

describe("log", () => {
  it("writes the message with {stats} and {{templates}} filled, at its level", async () => {
    const services = testServices();
    const evaluation = toolCallEvaluation(
      { name: "fs_write", fqn: "fs.write", params: { path: "src/a.ts" } },
      { stats: { turn: 3, tokens: 900, tools: 4 }, hookId: "audit" },
    );
    const result = await run(
      {
        type: "log",
        message: "Turn {turn}: {tokens} tokens, {tools} tool calls; {{tool.fqn}} {{tool.params.path}}",
      },
      evaluation,
      services,
    );
    expect(result).toBeUndefined();
    expect(services.logs).toEqual([
      {
        level: "info",
        message: "Turn 3: 900 tokens, 4 tool calls; fs.write src/a.ts",
        detail: { hook: "audit" },
      },
    ]);
  });

  it("maps warning to the logger's warn", async () => {
    const services = testServices();
    await run({ type: "log", message: "careful", level: "warning" }, testEvaluation(), services);
    await run({ type: "log", message: "bad", level: "error" }, testEvaluation(), services);
    await run({ type: "log", message: "noise", level: "debug" }, testEvaluation(), services);
    expect(services.logs.map((record) => record.level)).toEqual(["warn", "error", "debug"]);
  });
});

describe("notify", () => {
  it("publishes on the bus with the hook id, session and run", async () => {
    const services = testServices();
    const received: unknown[] = [];
    services.notifications.subscribe((notification) => received.push(notification));
    const evaluation = toolResultEvaluation(
      { name: "w", fqn: "reviewer.write", error: "disk full" },
      { hookId: "reviewer_lint", stats: { tokens: 5000 }, context: { sessionId: "s-7", runId: "r-2" } },
    );
    await run(
      {
        type: "notify",
        title: "Reviewer caught a failed write",
        message: "{{tool.fqn}}: {{tool.error}} ({tokens} tokens)",
        level: "warning",
        tag: "qa",
      },
      evaluation,
      services,
    );
    expect(received).toEqual([
      {
        title: "Reviewer caught a failed write",
        message: "reviewer.write: disk full (5000 tokens)",
        level: "warning",
        tag: "qa",
        hook: "reviewer_lint",
        sessionId: "s-7",
        runId: "r-2",
        at: expect.any(Number),
      },
    ]);
    expect(services.notifications.history).toHaveLength(1);
  });

  it("defaults to level info without a tag", async () => {
    const services = testServices();
    await run({ type: "notify", title: "t", message: "m" }, testEvaluation(), services);
    expect(services.notifications.history[0]).toMatchObject({ level: "info" });
    expect(services.notifications.history[0]).not.toHaveProperty("tag");
  });
});

describe("gate", () => {
  it("denies with the templated reason", async () => {
    const evaluation = toolCallEvaluation({
      name: "fs_delete",
      fqn: "fs.delete",
      params: { path: "/etc/hosts" },
    });
    expect(await run({ type: "gate", reason: "No deleting {{tool.params.path}}" }, evaluation)).toEqual({
      type: "deny",
      reason: "No deleting /etc/hosts",
    });
  });

  it("without a reason, names the hook", async () => {
    const evaluation = toolCallEvaluation({ name: "rm" }, { hookId: "no-rm" });
    expect(await run({ type: "gate" }, evaluation)).toEqual({
      type: "deny",
      reason: 'blocked by hook "no-rm"',
    });
  });
});

describe("transform_params", () => {
  it("sets (templated, types kept) and removes keys, leaving the original untouched", async () => {
    const params = { path: "a.txt", dangerous_flag: true, retries: 2 };
    const evaluation = toolCallEvaluation({ name: "fetch", params });
    const result = await run(
      {
        type: "transform_params",
        transformation: {
          set: {
            timeout: 60,
            encoding: "utf-8",
            backup: "{{tool.params.path}}.bak",
            attempts: "{{tool.params.retries}}",
          },
          remove: ["dangerous_flag", "absent"],
        },
      },
      evaluation,
    );
    expect(result).toEqual({
      type: "rewriteArgs",
      args: { path: "a.txt", retries: 2, timeout: 60, encoding: "utf-8", backup: "a.txt.bak", attempts: 2 },
    });
    expect(params).toEqual({ path: "a.txt", dangerous_flag: true, retries: 2 });
  });

  it("starts from {} when the arguments are not an object", async () => {
    const evaluation = toolCallEvaluation({ name: "t", params: "raw" });
    expect(await run({ type: "transform_params", transformation: { set: { a: 1 } } }, evaluation)).toEqual({
      type: "rewriteArgs",
      args: { a: 1 },
    });
  });

  it("needs set or remove", () => {
    expect(() =>
      compileAction({ type: "transform_params", transformation: {} }, testServices(), ["action"]),
    ).toThrow(/transformation needs set or remove/);
  });
});

describe("transform_result", () => {
  it("appends text and a note to a string result", async () => {
    const evaluation = toolResultEvaluation({ name: "edit", params: { path: "x.py" }, result: "edited" });
    const result = await run(
      {
        type: "transform_result",
        transformation: {
          append_to_result: "\nRemember to run tests after editing {{tool.params.path}}.",
          inject_note: "File was modified - consider running the test suite.",
        },
      },
      evaluation,
    );
    expect(result).toEqual({
      type: "rewriteResult",
      result:
        "edited\nRemember to run tests after editing x.py.\n[note] File was modified - consider running the test suite.",
    });
  });

  it("JSON-stringifies a non-string result first", async () => {
    const evaluation = toolResultEvaluation({ name: "count", result: { lines: 3 } });
    expect(
      await run({ type: "transform_result", transformation: { inject_note: "checked" } }, evaluation),
    ).toEqual({
      type: "rewriteResult",
      result: '{"lines":3}\n[note] checked',
    });
  });

  it("treats an undefined result as empty", async () => {
    const evaluation = toolResultEvaluation({ name: "void" });
    expect(
      await run({ type: "transform_result", transformation: { append_to_result: "done" } }, evaluation),
    ).toEqual({
      type: "rewriteResult",
      result: "done",
    });
  });
});

describe("inject_message on model_request (outbound copy, patch)", () => {
  const request = testRequest({
    system: "Base.",
    messages: [
      { role: "user", content: "first" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "second" },
    ],
  });

  it("auto and user append to the user message", async () => {
    for (const strategy of ["auto", "user", undefined]) {
      const action = {
        type: "inject_message",
        content: "Follow the standards.",
        ...(strategy ? { strategy } : {}),
      };
      expect(await run(action, modelRequestEvaluation(request))).toEqual({
        type: "patch",
        patch: { appendToUserMessage: "Follow the standards.", placement: "end" },
      });
    }
  });

  it("system appends to the system prompt, or becomes it", async () => {
    const action = { type: "inject_message", strategy: "system", content: "Be terse." };
    expect(await run(action, modelRequestEvaluation(request))).toEqual({
      type: "patch",
      patch: { system: "Base.\n\nBe terse." },
    });
    expect(await run(action, modelRequestEvaluation(testRequest({ system: undefined })))).toEqual({
      type: "patch",
      patch: { system: "Be terse." },
    });
  });

  it("new_message inserts at the end or before the last message, with its role", async () => {
    const end = await run(
      { type: "inject_message", strategy: "new_message", content: "note", role: "system" },
      modelRequestEvaluation(request),
    );
    expect(end).toEqual({
      type: "patch",
      patch: { messages: [...request.messages, { role: "system", content: "note" }] },
    });
    const beforeLast = await run(
      { type: "inject_message", strategy: "new_message", content: "context", position: "before_last" },
      modelRequestEvaluation(request),
    );
    expect((beforeLast as { patch: { messages: unknown[] } }).patch.messages).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "ok" },
      { role: "user", content: "context" },
      { role: "user", content: "second" },
    ]);
    expect(request.messages).toHaveLength(3);
  });

  it("fills templates in the content", async () => {
    const evaluation = modelRequestEvaluation(request, { context: { input: "build it" } });
    expect(await run({ type: "inject_message", content: "Task: {{run.input}}" }, evaluation)).toEqual({
      type: "patch",
      patch: { appendToUserMessage: "Task: build it", placement: "end" },
    });
  });
});

describe("inject_message elsewhere (persisted, inject)", () => {
  it("on run_start injects a message whose role follows the strategy", async () => {
    const evaluation = testEvaluation({ event: runStart() });
    const cases = [
      [{ strategy: "auto" }, "user"],
      [{ strategy: "user" }, "user"],
      [{ strategy: "system" }, "system"],
      [{ strategy: "new_message", role: "assistant" }, "assistant"],
      [{ strategy: "new_message" }, "user"],
    ] as const;
    for (const [options, role] of cases) {
      expect(await run({ type: "inject_message", content: "Remember X.", ...options }, evaluation)).toEqual({
        type: "inject",
        messages: [{ role, content: "Remember X." }],
      });
    }
  });

  it("works on session_start, step_start and step_end too", async () => {
    const events: AnyEventPayload[] = [
      { type: "session_start", agentPath: ["main"], sessionId: "s1" },
      { type: "step_start", agentPath: ["main"], step: 0 },
      { type: "step_end", agentPath: ["main"], step: 0, text: "", toolCalls: [] },
    ];
    for (const event of events) {
      const result = await run({ type: "inject_message", content: "hi" }, testEvaluation({ event }));
      expect(result).toEqual({ type: "inject", messages: [{ role: "user", content: "hi" }] });
    }
  });
});

describe("chain", () => {
  it("derives its kind from its children", () => {
    const log = { type: "log", message: "x" };
    expect(actionKind({ type: "chain", actions: [log, { type: "notify", title: "t", message: "m" }] })).toBe(
      "inspect",
    );
    expect(actionKind({ type: "chain", actions: [log, { type: "gate", reason: "no" }] })).toBe("decide");
    expect(
      actionKind({
        type: "chain",
        actions: [log, { type: "transform_params", transformation: { remove: ["a"] } }],
      }),
    ).toBe("transform");
    expect(
      actionKind({
        type: "chain",
        actions: [
          { type: "chain", actions: [{ type: "transform_result", transformation: { inject_note: "n" } }] },
        ],
      }),
    ).toBe("transform");
  });

  it("rejects a mix of decide and transform children at compile time", () => {
    const mixed = {
      type: "chain",
      actions: [
        { type: "transform_params", transformation: { remove: ["a"] } },
        { type: "gate", reason: "no" },
      ],
    };
    expect(() => compileAction(mixed, testServices(), ["action"])).toThrow(
      /a chain cannot mix decide actions \(gate\) with transform actions \(transform_params\)/,
    );
  });

  it("rejects an empty chain and validates children with their paths", () => {
    expect(() => compileAction({ type: "chain", actions: [] }, testServices(), ["action"])).toThrow(
      /action\.actions/,
    );
    expect(() =>
      compileAction(
        { type: "chain", actions: [{ type: "log", message: "a" }, { type: "shout" }] },
        testServices(),
        ["action"],
      ),
    ).toThrow(/action\.actions\[1\]: unknown action type "shout"/);
  });

  it("acts on the intersection of its children's events", () => {
    const log = { type: "log", message: "x" };
    expect(actionEvents({ type: "chain", actions: [log] })).toBe("any");
    expect(actionEvents({ type: "chain", actions: [log, { type: "gate" }] })).toEqual([
      "tool_call",
      "agent_spawn",
      "run_start",
      "run_end",
    ]);
    expect(
      actionEvents({
        type: "chain",
        actions: [{ type: "gate" }, { type: "transform_result", transformation: { inject_note: "n" } }],
      }),
    ).toEqual([]);
  });

  it("runs children in order; a rewrite is visible to later children and the final rewrite is returned", async () => {
    const services = testServices();
    const evaluation = toolCallEvaluation({ name: "fetch", params: { url: "http://x", timeout: 5 } });
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "log", message: "before: {{tool.params.timeout}}" },
          { type: "transform_params", transformation: { set: { timeout: 60 } } },
          { type: "log", message: "after: {{tool.params.timeout}}" },
          {
            type: "transform_params",
            transformation: { set: { retries: "{{tool.params.timeout}}" }, remove: ["url"] },
          },
        ],
      },
      evaluation,
      services,
    );
    expect(services.logs.map((record) => record.message)).toEqual(["before: 5", "after: 60"]);
    expect(result).toEqual({ type: "rewriteArgs", args: { timeout: 60, retries: 60 } });
    expect(evaluation.tool!.params).toEqual({ url: "http://x", timeout: 5 });
  });

  it("chains result rewrites", async () => {
    const evaluation = toolResultEvaluation({ name: "edit", result: "ok" });
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "transform_result", transformation: { inject_note: "one" } },
          { type: "transform_result", transformation: { inject_note: "two" } },
        ],
      },
      evaluation,
    );
    expect(result).toEqual({ type: "rewriteResult", result: "ok\n[note] one\n[note] two" });
  });

  it("merges model_request patches, later children seeing earlier ones", async () => {
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "inject_message", strategy: "system", content: "Rule 1." },
          { type: "inject_message", strategy: "system", content: "Rule 2." },
          { type: "inject_message", content: "Reminder." },
        ],
      },
      modelRequestEvaluation(testRequest({ system: "Base." })),
    );
    expect(result).toEqual({
      type: "patch",
      patch: { system: "Base.\n\nRule 1.\n\nRule 2.", appendToUserMessage: "Reminder." },
    });
  });

  it("concatenates injected messages", async () => {
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "inject_message", content: "a" },
          { type: "inject_message", strategy: "system", content: "b" },
        ],
      },
      testEvaluation({ event: runStart() }),
    );
    expect(result).toEqual({
      type: "inject",
      messages: [
        { role: "user", content: "a" },
        { role: "system", content: "b" },
      ],
    });
  });

  it("stops at the first terminal flow and returns it", async () => {
    const services = testServices();
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "log", message: "checking" },
          { type: "gate", reason: "nope" },
          { type: "log", message: "never logged" },
        ],
      },
      toolCallEvaluation({ name: "rm" }),
      services,
    );
    expect(result).toEqual({ type: "deny", reason: "nope" });
    expect(services.logs.map((record) => record.message)).toEqual(["checking"]);
  });

  it("records a failing child in hook_failures, logs it, and goes on", async () => {
    const services = explodingServices();
    const evaluation = toolCallEvaluation({ name: "fetch", params: {} }, { hookId: "pipeline" });
    const result = await run(
      {
        type: "chain",
        actions: [
          { type: "log", message: "explode once" },
          { type: "transform_params", transformation: { set: { a: 1 } } },
          { type: "log", message: "explode twice" },
          { type: "log", message: "still here" },
        ],
      },
      evaluation,
      services,
    );
    expect(result).toEqual({ type: "rewriteArgs", args: { a: 1 } });
    expect(evaluation.context.scratch.run.get<HookFailure[]>(HOOK_FAILURES)).toEqual([
      { hook: "pipeline", action: "log", error: "logger down: explode once" },
      { hook: "pipeline", action: "log", error: "logger down: explode twice" },
    ]);
    expect(
      services.logs.filter((record) => record.level === "error").map((record) => record.message),
    ).toEqual([
      'hook "pipeline": chain action 0 (log) failed: logger down: explode once',
      'hook "pipeline": chain action 2 (log) failed: logger down: explode twice',
    ]);
    expect(services.logs.at(-1)).toMatchObject({ level: "info", message: "still here" });
  });

  it("with stop_on_failure, stops and rethrows (so a blocking chain fails closed)", async () => {
    const services = explodingServices();
    const evaluation = toolCallEvaluation({ name: "fetch" }, { hookId: "strict" });
    const action = compileAction(
      {
        type: "chain",
        stop_on_failure: true,
        actions: [
          { type: "log", message: "explode" },
          { type: "gate", reason: "unreached" },
        ],
      },
      services,
      ["action"],
    );
    expect(action.kind).toBe("decide");
    await expect(async () => action.run(evaluation)).rejects.toThrow("logger down: explode");
    expect(evaluation.context.scratch.run.get<HookFailure[]>(HOOK_FAILURES)).toEqual([
      { hook: "strict", action: "log", error: "logger down: explode" },
    ]);
  });

  it("a child ended by the hook's own timeout ends the chain with it: the hook has no answer", async () => {
    // A failure the chain went on from would leave the chain's other rewrites as the answer.
    const controller = new AbortController();
    const evaluation = { ...toolCallEvaluation({ name: "fetch", params: {} }), signal: controller.signal };
    const workspace = mkdtempSync(join(tmpdir(), "hookwise-chain-"));
    onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
    const running = run(
      {
        type: "chain",
        actions: [
          {
            type: "shell",
            command: `${process.execPath} -e 'setTimeout(Date.now, 5000)'`,
            on_error: "inject",
          },
          { type: "transform_params", transformation: { set: { a: 1 } } },
        ],
      },
      evaluation,
      testServices(workspace),
    );
    setTimeout(() => controller.abort(new HookTimedOut()), 300);
    await expect(running).rejects.toBeInstanceOf(HookTimedOut);
  });

  it("a chain that allows everything answers undefined (continue)", async () => {
    const result = await run({ type: "chain", actions: [{ type: "log", message: "hi" }] }, testEvaluation());
    expect(result).toBeUndefined();
  });
});
