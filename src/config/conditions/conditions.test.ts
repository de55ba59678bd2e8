import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Evaluation } from "../build/evaluation.js";
import {
  modelErrorEvaluation,
  testEvaluation,
  toolCallEvaluation,
  toolResultEvaluation,
} from "../build/test-evaluation.js";
import { rewritePythonOperators } from "./cel/rewrite-python-operators.js";
import { budgetSpent, chargeValue, MAX_STEPS, passGate, passSized, resetSteps } from "./cel/step-budget.js";
import { MAX_CEL_DEPTH } from "./cel/to-cel-value.js";
import type { Predicate } from "./condition-module.js";
import { compileExpression, ExpressionError } from "./expression.js";
import { CONDITIONS, compileCondition, conditionTypes } from "./index.js";
import { shortCircuit } from "./short-circuit.js";

const compile = (value: unknown): Predicate => compileCondition(value, ["condition"]);
const check = async (value: unknown, evaluation: Evaluation = testEvaluation()) => compile(value)(evaluation);

/** An evaluation whose `turn` counts its reads, to observe which conditions ran. */
function countingTurns(turn = 0) {
  const counter = { reads: 0 };
  const evaluation = testEvaluation();
  const stats = { ...evaluation.stats };
  Object.defineProperty(stats, "turn", {
    get: () => {
      counter.reads++;
      return turn;
    },
  });
  return { evaluation: { ...evaluation, stats } as Evaluation, counter };
}

/** Throws when evaluated: there is no tool on a run_end event. */
const EXPLODES = { type: "expression", expr: 'tool.name == "x"' };

describe("registry", () => {
  it("lists the 14 seed conditions", () => {
    expect(conditionTypes()).toEqual([
      "always",
      "never",
      "all_of",
      "any_of",
      "not",
      "context_pressure",
      "turn_count",
      "tool_calls",
      "message_count",
      "tool_name",
      "tool_failed",
      "content_contains",
      "error_type",
      "expression",
    ]);
  });

  it("every module's example validates against its own schema and compiles", () => {
    for (const type of conditionTypes()) {
      const module = CONDITIONS.get(type)!;
      expect(module.schema.safeParse(module.example).success, type).toBe(true);
      expect(module.description.length, type).toBeGreaterThan(0);
      expect(() => compileCondition(module.example, ["example"]), type).not.toThrow();
    }
  });

  it("an unknown type throws naming the path and the valid types", () => {
    expect(() => compileCondition({ type: "tool_nmae" }, ["runtime", "hooks", 2, "condition"])).toThrow(
      /runtime\.hooks\[2\]\.condition: unknown condition type "tool_nmae"; valid types: always, never/,
    );
  });

  it("an unknown nested type throws with the nested path (not silently false)", () => {
    expect(() =>
      compileCondition({ type: "all_of", conditions: [{ type: "always" }, { type: "bogus" }] }, [
        "condition",
      ]),
    ).toThrow(/condition\.conditions\[1\]: unknown condition type "bogus"/);
  });

  it("schemas are strict: an unknown field is rejected", () => {
    expect(() => compile({ type: "always", threshold: 3 })).toThrow(/invalid always condition/);
    expect(() => compile({ type: "context_pressure", threshold: 1.5 })).toThrow(/condition\.threshold/);
  });
});

describe("always / never", () => {
  it("always is true, never is false", async () => {
    expect(await check({ type: "always" })).toBe(true);
    expect(await check({ type: "never" })).toBe(false);
  });
});

describe("all_of", () => {
  it("is true when every child is true, false when one is false", async () => {
    expect(await check({ type: "all_of", conditions: [{ type: "always" }, { type: "always" }] })).toBe(true);
    expect(await check({ type: "all_of", conditions: [{ type: "always" }, { type: "never" }] })).toBe(false);
  });

  it("an empty list (or none given) is true", async () => {
    expect(await check({ type: "all_of", conditions: [] })).toBe(true);
    expect(await check({ type: "all_of" })).toBe(true);
  });

  it("stops at the first false", async () => {
    expect(await check({ type: "all_of", conditions: [{ type: "never" }, EXPLODES] })).toBe(false);
    await expect(async () =>
      check({ type: "all_of", conditions: [{ type: "always" }, EXPLODES] }),
    ).rejects.toThrow();
  });

  it("stays synchronous when its children are", () => {
    expect(compile({ type: "all_of", conditions: [{ type: "always" }] })(testEvaluation())).toBe(true);
  });
});

describe("any_of", () => {
  it("is true when one child is true", async () => {
    expect(await check({ type: "any_of", conditions: [{ type: "never" }, { type: "always" }] })).toBe(true);
    expect(await check({ type: "any_of", conditions: [{ type: "never" }, { type: "never" }] })).toBe(false);
  });

  it("an empty list is false", async () => {
    expect(await check({ type: "any_of", conditions: [] })).toBe(false);
  });

  it("stops at the first true", async () => {
    expect(await check({ type: "any_of", conditions: [{ type: "always" }, EXPLODES] })).toBe(true);
  });

  it("evaluates children in order until one is true", async () => {
    const { evaluation, counter } = countingTurns(7);
    const turnIs = (threshold: number) => ({ type: "turn_count", threshold });
    expect(await check({ type: "any_of", conditions: [turnIs(1), turnIs(7), turnIs(9)] }, evaluation)).toBe(
      true,
    );
    expect(counter.reads).toBe(2);
  });
});

describe("not", () => {
  it("negates its child", async () => {
    expect(await check({ type: "not", condition: { type: "always" } })).toBe(false);
    expect(await check({ type: "not", condition: { type: "never" } })).toBe(true);
  });

  it("composes with composites (seed 003: not tool_name memory.*)", async () => {
    const condition = { type: "not", condition: { type: "tool_name", match: "memory.*" } };
    expect(await check(condition, toolCallEvaluation({ name: "memory_get", fqn: "memory.get" }))).toBe(false);
    expect(await check(condition, toolCallEvaluation({ name: "fs_read", fqn: "fs.read" }))).toBe(true);
  });

  it("requires its condition", () => {
    expect(() => compile({ type: "not" })).toThrow(/condition\.condition/);
  });
});

describe("context_pressure", () => {
  it("fires above the threshold, not at it", async () => {
    const condition = { type: "context_pressure", threshold: 0.8 };
    expect(await check(condition, testEvaluation({ stats: { pressure: 0.81 } }))).toBe(true);
    expect(await check(condition, testEvaluation({ stats: { pressure: 0.8 } }))).toBe(false);
  });

  it("defaults to 0.75", async () => {
    expect(await check({ type: "context_pressure" }, testEvaluation({ stats: { pressure: 0.76 } }))).toBe(
      true,
    );
    expect(await check({ type: "context_pressure" }, testEvaluation({ stats: { pressure: 0.74 } }))).toBe(
      false,
    );
  });

  it("rejects a threshold outside 0..1", () => {
    expect(() => compile({ type: "context_pressure", threshold: -0.1 })).toThrow();
  });
});

describe("turn_count", () => {
  it("threshold fires exactly at that turn", async () => {
    const condition = { type: "turn_count", threshold: 3 };
    expect(await check(condition, testEvaluation({ stats: { turn: 3 } }))).toBe(true);
    expect(await check(condition, testEvaluation({ stats: { turn: 4 } }))).toBe(false);
  });

  it("every fires on multiples, never on turn 0", async () => {
    const condition = { type: "turn_count", every: 5 };
    const at = (turn: number) => check(condition, testEvaluation({ stats: { turn } }));
    expect([await at(0), await at(4), await at(5), await at(10), await at(11)]).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it("needs exactly one of threshold and every", () => {
    expect(() => compile({ type: "turn_count" })).toThrow(/exactly one of threshold or every/);
    expect(() => compile({ type: "turn_count", threshold: 1, every: 2 })).toThrow(/exactly one/);
    expect(() => compile({ type: "turn_count", every: 0 })).toThrow();
  });
});

describe("tool_calls / message_count", () => {
  it("tool_calls fires above its threshold (default 20)", async () => {
    expect(await check({ type: "tool_calls" }, testEvaluation({ stats: { tools: 21 } }))).toBe(true);
    expect(await check({ type: "tool_calls" }, testEvaluation({ stats: { tools: 20 } }))).toBe(false);
    expect(await check({ type: "tool_calls", threshold: 2 }, testEvaluation({ stats: { tools: 3 } }))).toBe(
      true,
    );
  });

  it("message_count fires above its threshold (default 50)", async () => {
    expect(await check({ type: "message_count" }, testEvaluation({ stats: { messages: 51 } }))).toBe(true);
    expect(await check({ type: "message_count" }, testEvaluation({ stats: { messages: 50 } }))).toBe(false);
    expect(
      await check({ type: "message_count", threshold: 4 }, testEvaluation({ stats: { messages: 5 } })),
    ).toBe(true);
  });
});

describe("tool_name", () => {
  const write = toolCallEvaluation({ name: "filesystem_write", fqn: "filesystem.write" });
  const edit = toolCallEvaluation({ name: "Edit" });
  const read = toolCallEvaluation({ name: "filesystem_read", fqn: "filesystem.read" });

  it("matches a glob over the qualified name", async () => {
    expect(await check({ type: "tool_name", match: "filesystem.*" }, write)).toBe(true);
    expect(await check({ type: "tool_name", match: "*.write" }, write)).toBe(true);
    expect(await check({ type: "tool_name", match: "*.write" }, read)).toBe(false);
  });

  it("matches the function name too", async () => {
    expect(await check({ type: "tool_name", match: "filesystem_write" }, write)).toBe(true);
    expect(await check({ type: "tool_name", match: "filesystem_*" }, read)).toBe(true);
  });

  it('matches an "a|b" alternation', async () => {
    const condition = { type: "tool_name", match: "Write|Edit" };
    expect(await check(condition, edit)).toBe(true);
    expect(await check(condition, toolCallEvaluation({ name: "Write" }))).toBe(true);
    expect(await check(condition, toolCallEvaluation({ name: "Insert" }))).toBe(false);
  });

  it("matches a list", async () => {
    const condition = { type: "tool_name", match: ["Write", "Edit", "Insert"] };
    expect(await check(condition, toolCallEvaluation({ name: "Insert" }))).toBe(true);
    expect(await check(condition, toolCallEvaluation({ name: "Delete" }))).toBe(false);
  });

  it("keeps | inside a glob group as part of the glob", async () => {
    const condition = { type: "tool_name", match: "filesystem.@(read|write)|Edit" };
    expect(await check(condition, write)).toBe(true);
    expect(await check(condition, read)).toBe(true);
    expect(await check(condition, edit)).toBe(true);
    expect(
      await check(condition, toolCallEvaluation({ name: "filesystem_delete", fqn: "filesystem.delete" })),
    ).toBe(false);
  });

  it("is not a regex: a dot is literal", async () => {
    expect(
      await check({ type: "tool_name", match: "fs.read" }, toolCallEvaluation({ name: "fsxread" })),
    ).toBe(false);
  });

  it("is false on an event without a tool", async () => {
    expect(await check({ type: "tool_name", match: "*" })).toBe(false);
  });

  it("declares the tool events", () => {
    expect(CONDITIONS.get("tool_name")!.events).toEqual([
      "tool_call",
      "tool_result",
      "tool_error",
      "invalid_tool_call",
      "approval_request",
    ]);
  });
});

describe("tool_failed", () => {
  it("fires when the tool view carries an error or the result is an error", async () => {
    expect(await check({ type: "tool_failed" }, toolResultEvaluation({ name: "w", error: "EACCES" }))).toBe(
      true,
    );
    expect(await check({ type: "tool_failed" }, toolResultEvaluation({ name: "w", result: "ok" }))).toBe(
      false,
    );
  });

  it("reads event.isError when the view has no error", async () => {
    const evaluation = toolResultEvaluation({ name: "w", result: "boom" });
    const failed = testEvaluation({ ...evaluation, event: { ...(evaluation.event as any), isError: true } });
    expect(await check({ type: "tool_failed" }, failed)).toBe(true);
  });

  it("is tool_result only", () => {
    expect(CONDITIONS.get("tool_failed")!.events).toEqual(["tool_result"]);
  });
});

describe("content_contains", () => {
  const messages = [
    { role: "user" as const, content: "the secret word is PINEAPPLE" },
    { role: "assistant" as const, content: "ok" },
    { role: "user" as const, content: "a" },
    { role: "assistant" as const, content: "b" },
    { role: "user" as const, content: "c" },
    {
      role: "assistant" as const,
      content: [
        { type: "text" as const, text: "Let me Deploy it" },
        { type: "tool-call" as const, toolCallId: "1", toolName: "ship", input: { target: "production" } },
      ],
    },
    {
      role: "tool" as const,
      content: [
        {
          type: "tool-result" as const,
          toolCallId: "1",
          toolName: "ship",
          output: { type: "json" as const, value: { status: "Rolled-Back" } },
        },
      ],
    },
  ];
  const evaluation = testEvaluation({ messages });

  it("finds a keyword case-insensitively in text parts", async () => {
    expect(await check({ type: "content_contains", keyword: "deploy" }, evaluation)).toBe(true);
  });

  it("reads tool-call arguments and tool results", async () => {
    expect(await check({ type: "content_contains", keyword: "PRODUCTION" }, evaluation)).toBe(true);
    expect(await check({ type: "content_contains", keyword: "rolled-back" }, evaluation)).toBe(true);
  });

  it("looks at the last five messages only", async () => {
    expect(await check({ type: "content_contains", keyword: "pineapple" }, evaluation)).toBe(false);
    expect(
      await check(
        { type: "content_contains", keyword: "pineapple" },
        testEvaluation({ messages: messages.slice(0, 5) }),
      ),
    ).toBe(true);
  });

  it("is false when nothing matches", async () => {
    expect(await check({ type: "content_contains", keyword: "banana" }, evaluation)).toBe(false);
  });
});

describe("error_type", () => {
  it("matches exactly without wildcards", async () => {
    expect(await check({ type: "error_type", match: "billing" }, modelErrorEvaluation("billing"))).toBe(true);
    expect(await check({ type: "error_type", match: "billing" }, modelErrorEvaluation("billing_x"))).toBe(
      false,
    );
  });

  it("supports * wildcards anywhere", async () => {
    expect(
      await check({ type: "error_type", match: "rate_limit*" }, modelErrorEvaluation("rate_limit_exceeded")),
    ).toBe(true);
    expect(
      await check({ type: "error_type", match: "rate_limit*" }, modelErrorEvaluation("rate_limit")),
    ).toBe(true);
    expect(
      await check({ type: "error_type", match: "*_overflow" }, modelErrorEvaluation("context_overflow")),
    ).toBe(true);
    expect(await check({ type: "error_type", match: "*" }, modelErrorEvaluation("network"))).toBe(true);
  });

  it("treats regex characters literally", async () => {
    expect(await check({ type: "error_type", match: "a.c" }, modelErrorEvaluation("abc"))).toBe(false);
  });

  it("any_of over error types (seed 003)", async () => {
    const condition = {
      type: "any_of",
      conditions: [
        { type: "error_type", match: "billing" },
        { type: "error_type", match: "rate_limit" },
      ],
    };
    expect(await check(condition, modelErrorEvaluation("rate_limit"))).toBe(true);
    expect(await check(condition, modelErrorEvaluation("auth"))).toBe(false);
  });

  it("is false without an error, and model_error only", async () => {
    expect(await check({ type: "error_type", match: "*" })).toBe(false);
    expect(CONDITIONS.get("error_type")!.events).toEqual(["model_error"]);
  });
});

describe("expression (CEL)", () => {
  it("evaluates with the stats variables (seed example with Python `and`)", async () => {
    const condition = { type: "expression", expr: "turn > 5 and pressure > 0.6" };
    expect(await check(condition, testEvaluation({ stats: { turn: 6, pressure: 0.7 } }))).toBe(true);
    expect(await check(condition, testEvaluation({ stats: { turn: 6, pressure: 0.5 } }))).toBe(false);
    expect(await check(condition, testEvaluation({ stats: { turn: 5, pressure: 0.9 } }))).toBe(false);
  });

  it("accepts Python `or` and `not`, with Python's precedence", async () => {
    const at = (stats: object) => testEvaluation({ stats });
    expect(await check({ type: "expression", expr: "tools > 10 or messages > 3" }, at({ messages: 4 }))).toBe(
      true,
    );
    expect(await check({ type: "expression", expr: "not turn > 5" }, at({ turn: 3 }))).toBe(true);
    expect(await check({ type: "expression", expr: "not turn > 5" }, at({ turn: 6 }))).toBe(false);
    expect(
      await check(
        { type: "expression", expr: "not turn > 5 and tokens < 100" },
        at({ turn: 1, tokens: 500 }),
      ),
    ).toBe(false);
  });

  it("supports integer arithmetic on ints (turn % 5) and max_turns", async () => {
    const condition = { type: "expression", expr: "turn % 5 == 0 && turn + 1 < max_turns" };
    expect(await check(condition, testEvaluation({ stats: { turn: 10, max_turns: 20 } }))).toBe(true);
    expect(await check(condition, testEvaluation({ stats: { turn: 10, max_turns: 11 } }))).toBe(false);
  });

  it("reads tool, args and error", async () => {
    const evaluation = toolCallEvaluation({
      name: "fs_write",
      fqn: "fs.write",
      params: { path: "/etc/passwd", size: 3 },
    });
    expect(
      await check(
        { type: "expression", expr: 'tool.fqn == "fs.write" and args.path.startsWith("/etc")' },
        evaluation,
      ),
    ).toBe(true);
    expect(await check({ type: "expression", expr: "args.size + 1 == 4" }, evaluation)).toBe(true);
    expect(await check({ type: "expression", expr: "has(args.mode)" }, evaluation)).toBe(false);
    expect(await check({ type: "expression", expr: "tool == null" }, testEvaluation())).toBe(true);
    expect(
      await check(
        { type: "expression", expr: 'error != null && error.type == "billing"' },
        modelErrorEvaluation("billing"),
      ),
    ).toBe(true);
    expect(await check({ type: "expression", expr: "args == {}" }, testEvaluation())).toBe(true);
  });

  it("supports Python `not in`", async () => {
    const evaluation = toolCallEvaluation({ name: "fs_write", fqn: "fs.write" });
    expect(
      await check({ type: "expression", expr: "tool.name not in ['fs_read', 'fs_list']" }, evaluation),
    ).toBe(true);
    expect(await check({ type: "expression", expr: "tool.name not in ['fs_write']" }, evaluation)).toBe(
      false,
    );
  });

  it("throws a visible error when evaluation fails (never silently false)", async () => {
    const predicate = compile({ type: "expression", expr: 'tool.name == "x"' });
    await expect(async () => predicate(testEvaluation())).rejects.toThrow(/tool\.name == "x"/);
    try {
      await predicate(testEvaluation());
    } catch (error) {
      expect(ExpressionError.isInstance(error)).toBe(true);
      expect((error as ExpressionError).phase).toBe("evaluate");
    }
  });

  it("throws when a dynamic result is not a boolean", async () => {
    const predicate = compile({ type: "expression", expr: "args.flag" });
    const evaluation = toolCallEvaluation({ name: "t", params: { flag: "yes" } });
    await expect(async () => predicate(evaluation)).rejects.toThrow(/expected a boolean result, got string/);
    expect(await predicate(toolCallEvaluation({ name: "t", params: { flag: true } }))).toBe(true);
  });

  it("compiles once at compile time and reads only the variables it uses", async () => {
    let tokenReads = 0;
    const evaluation = testEvaluation({ stats: { turn: 2 } });
    const stats = evaluation.stats;
    const lazy = {
      ...evaluation,
      stats: {
        ...stats,
        get tokens() {
          tokenReads++;
          return 0;
        },
      },
    } as Evaluation;
    const predicate = compile({ type: "expression", expr: "turn == 2" });
    expect(await predicate(lazy)).toBe(true);
    expect(await predicate(lazy)).toBe(true);
    expect(tokenReads).toBe(0);
  });
});

describe("compileExpression", () => {
  it("throws at compile time on malformed CEL, with the column in the original text", () => {
    let thrown: unknown;
    try {
      compileExpression("turn > 5 and pressure >");
    } catch (error) {
      thrown = error;
    }
    expect(ExpressionError.isInstance(thrown)).toBe(true);
    const error = thrown as ExpressionError;
    expect(error.phase).toBe("compile");
    expect(error.column).toBe(24);
    expect(error.message).toBe(
      'Unexpected token: EOF at column 24 in CEL expression "turn > 5 and pressure >"',
    );
  });

  it("maps positions through rewrites back to the source", () => {
    try {
      compileExpression("turn > 1 and 'x");
      expect.unreachable();
    } catch (error) {
      expect((error as ExpressionError).column).toBe(14);
      expect((error as ExpressionError).detail).toBe("Unterminated string");
    }
  });

  it("reports line and column in a multi-line expression", () => {
    try {
      compileExpression("turn > 1\n  and ))");
      expect.unreachable();
    } catch (error) {
      expect((error as ExpressionError).line).toBe(2);
      expect((error as ExpressionError).message).toMatch(/at line 2, column \d+/);
    }
  });

  it("rejects an unknown variable at compile time", () => {
    expect(() => compileExpression("trun > 5")).toThrow(
      'Unknown variable: trun at column 1 in CEL expression "trun > 5"',
    );
  });

  it("rejects a wrongly typed or non-boolean expression at compile time", () => {
    expect(() => compileExpression("turn > 'five'")).toThrow(/no such overload/);
    expect(() => compileExpression("turn + 1")).toThrow(/expected a boolean, got int/);
    expect(compileExpression("turn + 1", { boolean: false })({ turn: 1 })).toBe(2n);
  });

  it("rejects an empty expression", () => {
    expect(() => compileExpression("  ")).toThrow(/empty expression/);
  });

  it("takes its own variable set (policies' `when` over args)", () => {
    const when = compileExpression('args.path.startsWith("/etc") or args.force == true', {
      variables: { args: "dyn" },
    });
    expect(when({ args: { path: "/etc/hosts" } })).toBe(true);
    expect(when({ args: { path: "/tmp/x", force: false } })).toBe(false);
    expect(() => compileExpression("turn > 1", { variables: { args: "dyn" } })).toThrow(
      /Unknown variable: turn/,
    );
  });

  it("never evaluates host code", () => {
    expect(() => compileExpression("process.exit(1)")).toThrow(ExpressionError);
    expect(() => compileExpression("__import__('os')")).toThrow(ExpressionError);
  });

  it("matches() with an identifier for a pattern (a comprehension's variable) is refused at load", () => {
    for (const expr of [
      "args.patterns.exists(p, args.a.matches(p))",
      '["(a+)+$"].exists(p, args.a.matches(p))',
      "args.a.matches(args.b)",
    ]) {
      expect(() => compileExpression(expr), expr).toThrow("matches() pattern must be a string literal");
    }
  });

  it("a catastrophic pattern cannot hang the test: it runs in a child process killed after 20 s", async () => {
    // A synchronous regular expression ignores vitest's timeout: on a backtracking engine this
    // evaluation would block its worker for hours. In a child, the test ends either way.
    const module = new URL("./expression.ts", import.meta.url).href;
    const script = `const { compileExpression } = await import(${JSON.stringify(module)});
const evaluate = compileExpression('args.command.matches("^(a+)+$") || args.command.matches("^([a-z]+ ?)*$")');
const started = performance.now();
const answer = evaluate({ args: { command: "a".repeat(40) + "!" } });
process.stdout.write(JSON.stringify({ answer, ms: performance.now() - started }));`;
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    expect(code, `killed or failed: ${err}`).toBe(0);
    const { answer, ms } = JSON.parse(out) as { answer: boolean; ms: number };
    expect(answer).toBe(false);
    expect(ms).toBeLessThan(1_000);
  }, 30_000);

  it("matches() runs in linear time on a text the model chose; its pattern is a literal the linear engine runs", () => {
    const plain = compileExpression(String.raw`args.command.matches("^(\\w+\\s?)*$")`);
    const started = performance.now();
    expect(plain({ args: { command: `${"a".repeat(20_000)}!` } })).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(plain({ args: { command: "ls docs" } })).toBe(true);
    expect(compileExpression('"x".matches("^x$") and "ab".matches("b")')({})).toBe(true);
    const refused = (expr: string) => {
      try {
        compileExpression(expr);
      } catch (error) {
        return { message: (error as ExpressionError).detail, column: (error as ExpressionError).column };
      }
      throw new Error(`${expr} compiled`);
    };
    expect(refused("turn > 1 and args.a.matches(args.b)")).toEqual({
      message:
        "matches() pattern must be a string literal: a pattern from the run's data could take exponential time",
      column: 29,
    });
    expect(refused(String.raw`args.a.matches("(a+)\\1")`).message).toContain("cannot run in linear time");
    expect(refused('args.a.matches("[a-z]{1,64}")').message).toContain("check a length with size()");
    expect(refused("args.a.matchRE(args.b)").message).toBe("unknown function matchRE()");
    // A call that cannot be moved to the linear engine is refused, never run on the other one.
    expect(refused('args.a.matches( // matches\n "x")').message).toBe(
      "matches() could not be placed in the expression",
    );
    // Errors name matches(), as the user wrote it.
    expect(() => compileExpression('args.n.matches("x")')({ args: { n: 3 } })).toThrow(
      "no matching overload for 'int.matches(string)'",
    );
  });
});

describe("an expression's step budget", () => {
  // These count steps: the clock stands still (a loaded machine may take more than 1 s for a
  // million steps, and the clock would stop them first). The clock has tests of its own.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const paths = Array.from({ length: 3000 }, (_, index) => `src/file-${index}.ts`);
  const evaluationError = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as ExpressionError;
    }
    throw new Error("evaluated");
  };

  it("stops a comprehension inside another over the same list: an error, never an answer", () => {
    // 3,000 × 3,000 steps: about a minute of a blocked process without the budget.
    const twice = compileExpression("args.paths.exists(p, args.paths.filter(q, q == p).size() > 1)");
    const error = evaluationError(() => twice({ args: { paths } }));
    expect(error).toBeInstanceOf(ExpressionError);
    expect(error.phase).toBe("evaluate");
    expect(error.detail).toContain("evaluation stopped after 1,000,000 comprehension steps");
    // The next evaluation has a budget of its own.
    expect(twice({ args: { paths: ["a", "b", "a"] } })).toBe(true);
    expect(twice({ args: { paths: ["a", "b"] } })).toBe(false);
  });

  it("fails once the budget is spent, whatever the rest of the expression answers", () => {
    // `|| true` would absorb the comprehension's error; past the budget nothing answers.
    const absorbed = compileExpression(
      "args.paths.exists(p, args.paths.filter(q, q == p).size() > 1) || args.paths.size() > 0",
    );
    expect(evaluationError(() => absorbed({ args: { paths } })).detail).toContain(
      "evaluation stopped after 1,000,000 comprehension steps",
    );
    // Nested quantifiers end at their next step (the outer one over 3,000 paths, too).
    const nested = compileExpression("args.paths.all(p, !args.paths.exists(q, q == p + 'x'))");
    expect(evaluationError(() => nested({ args: { paths } })).detail).toContain("evaluation stopped");
  });

  it("decides on whole steps: an answer found before the budget is spent stands", () => {
    // The first path is given twice: the first outer step (3,000 inner steps) decides.
    const twice = compileExpression("args.paths.exists(p, args.paths.filter(q, q == p).size() > 1)");
    expect(twice({ args: { paths: [...paths, paths[0]] } })).toBe(true);
  });

  it("leaves linear comprehensions alone, over long lists and nested over each item's own list", () => {
    const files = paths.map((path) => ({ path, tags: ["a", "b", "c"] }));
    const linear = compileExpression(
      'args.files.all(f, f.tags.all(t, t != "secret")) and args.files.map(f, f.path).filter(p, p.endsWith(".ts")).size() == 3000',
    );
    expect(linear({ args: { files } })).toBe(true);
    expect(compileExpression("[1, 2, 3].map(x, x * 2)[2] == 6")({})).toBe(true);
  });

  it("times every step from the first: a slow step costs the budget at most one step more", () => {
    // A step that scans a long list the model sent may take 100 ms: 16 steps between two
    // looks at the clock, and 16 more before the first, let such steps run for seconds.
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      resetSteps();
      let passed = 0;
      while (passGate()) {
        passed++;
        vi.advanceTimersByTime(300);
      }
      expect(passed).toBe(4); // at 0, 300, 600 and 900 ms; not at 1,200
      expect(budgetSpent()?.message).toContain("evaluation stopped after 1000 ms");
    } finally {
      vi.useRealTimers();
    }
  });

  it("gates a step that opens or closes with a parenthesis (the engine places it inside them)", () => {
    const items = { args: { items: [1, 2, 3], names: ["a", "b"] } };
    for (const [expr, expected] of [
      ["args.items.all(x, not (x > 5))", true],
      ["args.items.all(x, !(x > 5) && !(x < 0))", true],
      ['args.names.exists(n, n not in ["a", "b"])', false],
      ["args.items.exists(x, (x > 2) || (x < 0))", true],
      ["args.items.map(x, (x > 1), x * 2) == [4, 6]", true],
      ["args.items.filter(x, !(x == 2) // not two\n).size() == 2", true],
      ["args.items.exists_one(x, ((x == 2)),)", true],
    ] as const) {
      expect(compileExpression(expr)(items), expr).toBe(expected);
    }
    // Gated, not only accepted: nested over 3,000 items, the same forms spend the budget.
    const paths = { args: { items: Array.from({ length: 3000 }, (_, index) => index) } };
    for (const expr of [
      "args.items.all(x, not (args.items.exists(y, y == x + 5000)))",
      "args.items.exists(x, (args.items.filter(y, (y > x)).size() < 0))",
    ]) {
      expect(evaluationError(() => compileExpression(expr)(paths)).detail, expr).toContain(
        "evaluation stopped after 1,000,000 comprehension steps",
      );
    }
  });

  it("charges a map() step what it makes: a list handed on whole cannot be compared n × n for free", () => {
    // 20,000 steps that each hand on the whole list: 400 million items for one `in` to compare.
    const p = Array.from({ length: 20_000 }, (_, index) => index);
    const q = [...p.slice(0, -1), -1];
    for (const expr of [
      "args.q in args.p.map(x, args.p)",
      "args.p.map(x, args.p) == args.q.map(x, args.q)",
      "args.q in args.p.map(x, true, args.p)",
      "[args.q] in args.p.map(x, [args.p])",
    ]) {
      expect(evaluationError(() => compileExpression(expr)({ args: { p, q } })).detail, expr).toContain(
        "evaluation stopped after 1,000,000 comprehension steps",
      );
    }
    // What a step makes of its own item stays far below the budget.
    expect(compileExpression("args.p.map(x, [x, x]).size() == 20000")({ args: { p } })).toBe(true);
    expect(() => compileExpression("args.p.map(x, hookwiseSized(x)).size() > 0")).toThrow(
      "unknown function hookwiseSized()",
    );
  });

  it("exactly the budget passes; one step more fails", () => {
    resetSteps();
    for (let step = 0; step < MAX_STEPS; step++) if (!passGate()) throw new Error(`closed at step ${step}`);
    expect(budgetSpent()).toBeUndefined();
    expect(passGate()).toBe(false);
    expect(budgetSpent()?.message).toContain("evaluation stopped after 1,000,000 comprehension steps");
    // End to end: args' two keys, the list's n items and the n steps of all() are 2n + 2 steps.
    const all = compileExpression("args.l.all(x, x >= 0)");
    const n = (MAX_STEPS - 2) / 2;
    const list = Array.from({ length: n }, () => 1);
    expect(all({ args: { l: list, e: 0 } })).toBe(true);
    expect(evaluationError(() => all({ args: { l: list, e: 0, f: 0 } })).detail).toContain(
      "evaluation stopped after 1,000,000 comprehension steps",
    );
  });

  it("converting values and sizing a step's result count against the same budget: exactly it passes", () => {
    resetSteps();
    expect(() => chargeValue(MAX_STEPS)).not.toThrow();
    expect(() => chargeValue(1)).toThrow("evaluation stopped after 1,000,000 comprehension steps");
    // A text costs a step per 64 characters: 1,000 steps here, so 999,000 gates more pass and no more.
    resetSteps();
    passSized("y".repeat(64 * 1000));
    for (let step = 1000; step < MAX_STEPS; step++)
      if (!passGate()) throw new Error(`closed at step ${step}`);
    expect(budgetSpent()).toBeUndefined();
    expect(passGate()).toBe(false);
  });

  it("the clock starts with the evaluation: converting its values counts, before any step", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      resetSteps();
      vi.advanceTimersByTime(1_001);
      expect(passGate()).toBe(false);
      resetSteps();
      chargeValue(1000);
      vi.advanceTimersByTime(1_001);
      expect(() => chargeValue(100)).toThrow("evaluation stopped after 1000 ms");
    } finally {
      vi.useRealTimers();
    }
    // A value too big to read is refused while it converts: 1.2 million items, no comprehension.
    const started = Date.now();
    const error = evaluationError(() =>
      compileExpression("size(args.l) > 0")({ args: { l: Array.from({ length: 1_200_000 }, () => 0) } }),
    );
    expect(error.detail).toContain("evaluation stopped after");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("an expression with no comprehension reads no clock; a long conversion is timed from its first look", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const now = vi.spyOn(performance, "now");
    try {
      const plain = compileExpression('args.command.contains("rm") || args.n > 2');
      expect(plain({ args: { command: "ls -la", n: 1 } })).toBe(false);
      expect(now).not.toHaveBeenCalled();
      // One with a comprehension starts its clock with the evaluation.
      compileExpression('args.items.exists(i, i == "x")')({ args: { items: ["a"] } });
      expect(now).toHaveBeenCalled();
      // Converting a value of many items still reads the clock as it goes, from its first look.
      now.mockClear();
      resetSteps(false);
      chargeValue(1000);
      expect(now).not.toHaveBeenCalled();
      chargeValue(100); // past 1,024 items: the first look starts the clock
      vi.advanceTimersByTime(1_001);
      expect(() => chargeValue(1024)).toThrow("evaluation stopped after 1000 ms");
    } finally {
      now.mockRestore();
      vi.useRealTimers();
    }
  });

  it("deep values: equality over 3,000 levels is refused at once; 60 levels compare", () => {
    const nested = (depth: number) => {
      let value: unknown = 1;
      for (let level = 0; level < depth; level++) value = { a: value };
      return value;
    };
    const same = compileExpression("args.a.a.a == args.a.a.a");
    const started = Date.now();
    const error = evaluationError(() => same({ args: { a: nested(3000) } }));
    expect(Date.now() - started).toBeLessThan(500);
    expect(error.detail).toContain(`a value nests more than ${MAX_CEL_DEPTH} levels deep`);
    expect(same({ args: { a: nested(60) } })).toBe(true);
  });

  it("points errors into what was written, and the gate's functions are not for expressions", () => {
    const error = evaluationError(() =>
      compileExpression('args.items.all(x, x.size() > 0) and args.n + "x" == "y"')({
        args: { items: ["a"], n: 1 },
      }),
    );
    expect(error.column).toBe(37); // args.n + "x", not 19 characters later where the engine read it
    expect(() => compileExpression("hookwiseGate()")).toThrow("unknown function hookwiseGate()");
    expect(() => compileExpression("args.a.all(x, hookwiseNever() == null)")).toThrow(
      "unknown function hookwiseNever()",
    );
  });
});

describe("lastIndexOf on a text and a search the model chose", () => {
  it("searches in linear time (the native backward search takes the text's length times the search's)", () => {
    const last = compileExpression("args.text.lastIndexOf(args.needle)", { boolean: false });
    // 400,000 characters and a 200,001-character search that almost matches everywhere:
    // about 15 s of a blocked process on the native search.
    const text = "a".repeat(400_000);
    expect(last({ args: { text, needle: `${"a".repeat(200_000)}b` } })).toBe(-1n);
    expect(last({ args: { text: `${text}b${text}`, needle: `${"a".repeat(200_000)}b` } })).toBe(200_000n);
  });

  it("answers as CEL's lastIndexOf does, a start index included", () => {
    const long = "x".repeat(40);
    const cases: [string, unknown][] = [
      ['"hello".lastIndexOf("l")', 3n],
      ['"hello".lastIndexOf("l", 2)', 2n],
      ['"hello".lastIndexOf("", 1)', 1n],
      [`"${long}y${long}".lastIndexOf("${long}")`, 41n],
      [`"${long}y${long}".lastIndexOf("${long}", 40)`, 0n],
      [`"${long}".lastIndexOf("${long}y")`, -1n],
    ];
    for (const [expr, expected] of cases)
      expect(compileExpression(expr, { boolean: false })({})).toBe(expected);
    expect(() => compileExpression('"hello".lastIndexOf("l", 9) == 1')({})).toThrow(
      "string.lastIndexOf(search, fromIndex): fromIndex out of range",
    );
    expect(() => compileExpression('"x".lastIndexLn("x") == 0')).toThrow("unknown function lastIndexLn()");
  });
});

describe("rewritePythonOperators", () => {
  const rewrite = (source: string) => rewritePythonOperators(source).text;

  it("rewrites and / or / True / False / None", () => {
    expect(rewrite("a > 1 and b or c")).toBe("a > 1 && b || c");
    expect(rewrite("x == True or y == None and z != False")).toBe("x == true || y == null && z != false");
  });

  it("wraps the operand of not up to the next and / or", () => {
    expect(rewrite("not a > 1")).toBe("!(a > 1)");
    expect(rewrite("not a > 1 and b")).toBe("!(a > 1) && b");
    expect(rewrite("x or not y")).toBe("x || !(y)");
    expect(rewrite("not not a")).toBe("!(!(a))");
    expect(rewrite("(not a) and b")).toBe("(!(a)) && b");
    expect(rewrite("f(not a, b)")).toBe("f(!(a), b)");
  });

  it("rewrites `not in`", () => {
    expect(rewrite("a not in b")).toBe("!(a in b)");
    expect(rewrite("x and a not in [1, 2]")).toBe("x && !(a in [1, 2])");
    expect(rewrite("not a not in b")).toBe("!(!(a in b))");
  });

  it("leaves string literals alone", () => {
    expect(rewrite('name == "salt and pepper" or x')).toBe('name == "salt and pepper" || x');
    expect(rewrite("s == 'it\\'s not or' and t")).toBe("s == 'it\\'s not or' && t");
    expect(rewrite('s == """a "and" b""" and t')).toBe('s == """a "and" b""" && t');
    expect(rewrite("s == r'\\' and t")).toBe("s == r'\\' && t");
  });

  it("leaves field names and longer words alone", () => {
    expect(rewrite("args.and == 1 and android or orange and notice")).toBe(
      "args.and == 1 && android || orange && notice",
    );
    expect(rewrite("args.not")).toBe("args.not");
    expect(rewrite("args . and")).toBe("args . and");
    expect(rewrite("constructor or toString and __proto__")).toBe("constructor || toString && __proto__");
  });

  it("leaves CEL operators as they are", () => {
    expect(rewrite("a && !b || c != d")).toBe("a && !b || c != d");
  });

  it("maps output positions back to the source", () => {
    const rewritten = rewritePythonOperators("a and 'x");
    expect(rewritten.text).toBe("a && 'x");
    expect(rewritten.sourceOffset(5)).toBe(6);
  });
});

describe("shortCircuit (async children)", () => {
  it("awaits a pending child, then stops at the first match", async () => {
    const calls: string[] = [];
    const predicates = [
      async () => {
        calls.push("a");
        return false;
      },
      () => {
        calls.push("b");
        return true;
      },
      () => {
        calls.push("c");
        return true;
      },
    ];
    const result = shortCircuit(predicates, testEvaluation(), true);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(true);
    expect(calls).toEqual(["a", "b"]);
    expect(await shortCircuit([async () => true], testEvaluation(), false)).toBe(false);
  });
});
