import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  compileExpression,
  compileExpressionOnEngine,
  EXPRESSION_VARIABLES,
  ExpressionError,
} from "../expression.js";
import { rewritePythonOperators } from "./rewrite-python-operators.js";
import { ENGINE, simpleExpression } from "./simple-cel.js";
import { toCelValue } from "./to-cel-value.js";

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20261129);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

// Texts a value or a literal may hold: a literal of one found in the other, around
// surrogate pairs, lone surrogates, combining marks and case.
const TEXTS = [
  "",
  "rm",
  "rm -rf /",
  "RM",
  "é",
  "e\u0301",
  "😀",
  "\ud83d",
  "\ude00",
  "x😀y",
  ".env",
  "git push",
  " ",
  "//",
  "a'b",
  'a"b',
  "\\",
  "$" + "{x}",
  "\u2028",
  "\0",
];
const FIELDS = [
  "command",
  "command",
  "file_path",
  "file_path",
  "name",
  "name",
  "a",
  "in",
  "constructor",
  "__proto__",
  "has",
  "size",
  "x1",
];
const SPACES = ["", " ", " ", " ", "  ", "\t", "\n", "\u00a0", "\v", "\f", "\r\n"];
const ROOTS = ["args", "args", "args", "args", "args", "tool", "tool", "input", "output", "turn", "argz"];

function literal(): string {
  const text = pick(TEXTS);
  switch (pick(["d", "d", "d", "d", "d", "d", "s", "s", "raw", "escape", "triple", "bytes"])) {
    case "s":
      return `'${text}'`;
    case "raw":
      return `r"${text}"`;
    case "escape":
      return `"${text}\\n"`;
    case "triple":
      return `"""${text}"""`;
    case "bytes":
      return `b"${text}"`;
    default:
      return `"${text}"`;
  }
}

function path(): string {
  // Mostly a text a guard reads; else any path, which the engine may have to answer.
  if (next() < 0.7)
    return pick(["args.command", "args.file_path", "args.a", "args . name", "tool.name", "input", "output"]);
  let text = pick(ROOTS);
  const depth = pick([0, 1, 1, 1, 2, 3]);
  for (let index = 0; index < depth; index++) text += `${pick(["", "", "", " "])}.${pick(FIELDS)}`;
  return text;
}

function test(): string {
  switch (pick(["method", "method", "method", "method", "compare", "compare", "compare", "other"])) {
    case "method":
      return `${path()}.${pick(["contains", "startsWith", "endsWith", "contains", "startsWith", "endsWith", "matches", "size", "has"])}(${literal()})`;
    case "compare":
      return pick([true, true, true, false])
        ? `${path()} ${pick(["==", "!=", "==", "<", "in"])} ${literal()}`
        : `${literal()} == ${path()}`;
    default:
      return pick([`has(${path()})`, `${path()}.size() > 1`, `${path()} == 1`, "true", `${path()}`]);
  }
}

function expression(depth = 0): string {
  const space = pick(SPACES);
  if (depth > 2) return test();
  switch (pick(["test", "test", "and", "or", "not", "paren", "python"])) {
    case "and":
      return `${expression(depth + 1)}${space}&&${space}${expression(depth + 1)}`;
    case "or":
      return `${expression(depth + 1)} || ${expression(depth + 1)}`;
    case "not":
      return `!${pick(["", " "])}${expression(depth + 1)}`;
    case "paren":
      return `(${expression(depth + 1)})`;
    case "python":
      return `${pick(["not ", ""])}${expression(depth + 1)} ${pick(["and", "or"])} ${expression(depth + 1)}`;
    default:
      return test();
  }
}

function value(depth = 0): unknown {
  switch (pick(["text", "text", "text", "text", "map", "number", "null", "bool", "list", "missing"])) {
    case "map":
      return depth > 2 ? pick(TEXTS) : map(depth + 1);
    case "number":
      return pick([0, 1, 1.5, -2]);
    case "null":
      return null;
    case "bool":
      return pick([true, false]);
    case "list":
      return [pick(TEXTS)];
    case "missing":
      return undefined;
    default:
      return text();
  }
}

function text(): string {
  return pick(TEXTS) + pick(["", "", pick(TEXTS)]);
}

function map(depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of new Set(FIELDS)) {
    // The fields guards read are there and texts most of the time: the evaluator's own answers.
    const common = ["command", "file_path", "name", "a"].includes(field);
    if (next() < (common ? 0.95 : 0.5)) out[field] = common && next() < 0.9 ? text() : value(depth);
  }
  return out;
}

function variables(): Record<string, unknown> {
  return {
    args: next() < 0.1 ? new Map([["command", pick(TEXTS)]]) : map(),
    tool: next() < 0.2 ? null : { name: pick(["Bash", "Read", "rm"]), params: map() },
    input: next() < 0.2 ? undefined : pick(TEXTS),
    output: pick(TEXTS),
    turn: 3,
  };
}

/** The answer, or the error's message: what a guard acts on. */
function outcome(evaluate: () => unknown): unknown {
  try {
    return { value: evaluate() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("the evaluator of common guard conditions", () => {
  it("answers what the CEL engine answers, over generated expressions and values", () => {
    let accepted = 0;
    let answered = 0;
    let evaluations = 0;
    for (let index = 0; index < 6000; index++) {
      const expr = expression();
      const simple = simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES);
      let engine: ReturnType<typeof compileExpressionOnEngine>;
      try {
        engine = compileExpressionOnEngine(expr);
      } catch (error) {
        // What the engine refuses is never in the evaluator's language, and still refused.
        expect(simple, `${JSON.stringify(expr)}: ${(error as Error).message}`).toBeUndefined();
        expect(() => compileExpression(expr)).toThrow((error as Error).message);
        continue;
      }
      const both = compileExpression(expr);
      if (simple) accepted++;
      for (let round = 0; round < 8; round++) {
        const values = variables();
        const expected = outcome(() => engine(values));
        expect(
          outcome(() => both(values)),
          `${JSON.stringify(expr)} over ${inspect(values)}`,
        ).toEqual(expected);
        if (!simple) continue;
        evaluations++;
        const context: Record<string, unknown> = {};
        for (const name of simple.used)
          if (values[name as keyof typeof values] !== undefined)
            context[name] = toCelValue(values[name as keyof typeof values]);
        const answer = simple.evaluate(context);
        if (answer === ENGINE) continue;
        answered++;
        expect({ value: answer }, `${JSON.stringify(expr)} over ${inspect(values)}`).toEqual(expected);
      }
    }
    // The generator reaches the evaluator's language and its answers, not only the engine.
    expect(accepted).toBeGreaterThan(400);
    expect(answered).toBeGreaterThan(evaluations / 4);
  });

  it("takes the conditions guards are written with", () => {
    for (const expr of [
      'args.command.contains("rm -rf")',
      "args.file_path.endsWith('.env') || args.file_path.startsWith(\"/etc/\")",
      'tool.name == "Bash" && !args.command.startsWith("git ")',
      'not args.command.contains("sudo") and input != ""',
      '!(args.a.b == "x")',
    ])
      expect(simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES), expr).toBeDefined();
  });

  it("leaves to the engine what it would not parse as CEL does", () => {
    for (const expr of [
      // `!` binds tighter than `==` in CEL: (!args.a) == "x", a type error there.
      '!args.a == "x"',
      'args.a.contains("x") == true',
      'args.a.contains("a\\nb")',
      'args.a.contains(r"x")',
      'args.a.contains("""x""")',
      'args.in == "x"',
      'input.length == "x"',
      'turn == "x"',
      'args.a.matches("x")',
      'args.a == "x" == "y"',
      'args.a\u00a0== "x"',
      "args.a == 'x' // a comment",
    ])
      expect(simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES), expr).toBeUndefined();
  });

  it("gives the engine's error where a field is missing, and its answer where || absorbs it", () => {
    const missing = compileExpression('args.command.contains("rm")');
    expect(() => missing({ args: { file_path: "x" } })).toThrow(/command/);
    const absorbed = compileExpression('args.command.contains("rm") || args.file_path == "x"');
    expect(absorbed({ args: { file_path: "x" } })).toBe(true);
    const deep = compileExpression('args.a.contains("x")');
    let nested: Record<string, unknown> = { a: "x" };
    for (let index = 0; index < 100; index++) nested = { a: "x", b: nested };
    expect(() => deep({ args: nested })).toThrow(/levels deep/);
  });
});

describe("the evaluator of common guard conditions, at the engine's limits", () => {
  const test = 'args.command.contains("rm")';
  /** What compiling and evaluating `expr` gives, on the evaluator and on the engine alone. */
  const both = (expr: string, values: Record<string, unknown>) => ({
    evaluator: outcome(() => compileExpression(expr)(values)),
    engine: outcome(() => compileExpressionOnEngine(expr)(values)),
  });

  it("refuses, as the engine does, what is nested past the engine's depth or has more nodes than it parses", () => {
    const values = { args: { command: "rm -rf /" } };
    for (const [label, expr] of [
      // The engine parses 250 levels at most (each parenthesis, each field, a call's argument).
      ["247 parentheses", `${"(".repeat(247)}${test}${")".repeat(247)}`],
      ["`not` 250 times", `${"not ".repeat(250)}${test}`],
      ["a path of 260 fields after a test that holds", `${test} || args${".a".repeat(260)} == "x"`],
      // And at most 100,000 nodes.
      ["30,000 tests joined by ||", Array(30_000).fill(test).join(" || ")],
    ] as const) {
      const { evaluator, engine } = both(expr, values);
      expect.soft(engine, label).toHaveProperty("error");
      expect.soft(evaluator, label).toEqual(engine);
      expect
        .soft(simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES), label)
        .toBeUndefined();
    }
  });

  it("leaves to the engine what is long enough to overflow a stack, the engine's or its own", () => {
    for (const [label, expr] of [
      // The engine checks types recursively, once per `||`: a few thousand overflow its stack
      // (how many depends on the stack left and on what V8 has optimized).
      ["3,000 tests joined by ||", Array(3000).fill(test).join(" || ")],
      // Negations recurse in both parsers.
      ["12,000 negations", `${"!".repeat(12_000)}${test}`],
      ["12,000 parentheses", `${"(".repeat(12_000)}${test}${")".repeat(12_000)}`],
    ] as const) {
      expect
        .soft(
          outcome(() => simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES)),
          label,
        )
        .toEqual({
          value: undefined,
        });
      // The engine's answer or its refusal, never a stack overflow out of compileExpression.
      try {
        compileExpression(expr);
      } catch (error) {
        expect.soft(error, label).toBeInstanceOf(ExpressionError);
      }
    }
  });
});

describe("the evaluator of common guard conditions, over a value past the budget", () => {
  /**
   * Arguments of 3,000 fields, whose 1,500th takes `slow` ms to read the first time only: a
   * conversion that runs past the clock once, as a busy machine makes one.
   */
  function slowOnce(slow: number): Record<string, unknown> {
    const args: Record<string, unknown> = { command: "ls" };
    for (let index = 0; index < 3000; index++) args[`k${index}`] = "v";
    let read = false;
    Object.defineProperty(args, "k1500", {
      enumerable: true,
      get() {
        if (!read) {
          read = true;
          const until = performance.now() + slow;
          while (performance.now() < until) {}
        }
        return "v";
      },
    });
    return args;
  }

  it("fails as the engine does when converting the values ran out of time, and never converts them again", () => {
    const expr = 'args.command.contains("rm")';
    const engine = outcome(() => compileExpressionOnEngine(expr)({ args: slowOnce(1100) }));
    expect(engine).toEqual({ error: expect.stringMatching(/evaluation stopped after 1000 ms/) });
    // A second conversion would be in time, and answer false: the guard would let the call through.
    expect(outcome(() => compileExpression(expr)({ args: slowOnce(1100) }))).toEqual(engine);
  });
});

describe("the evaluator of common guard conditions, over what an attacker would try", () => {
  const json = (text: string): unknown => JSON.parse(text);
  it("answers what the engine answers over odd texts and odd values", () => {
    const cases: [string, Record<string, unknown>][] = [
      // Keys JSON can write that JavaScript reads otherwise.
      ['args.__proto__ == "x"', { args: json('{"__proto__": "x"}') }],
      ['args.a == "x"', { args: json('{"__proto__": {"a": "x"}}') }],
      ['args.__proto__.a == "x"', { args: json('{"__proto__": {"a": "x"}, "b": "y"}') }],
      ['args.constructor == "x"', { args: json('{"constructor": "x"}') }],
      ['args.a.contains("x")', { args: json('{"constructor": "x", "a": "x"}') }],
      ['args.a.b == "x"', { args: json('{"a": {"constructor": {"name": "Object"}, "b": "x"}}') }],
      [
        'args.prototype == "x" && args.hasOwnProperty == "y"',
        { args: { prototype: "x", hasOwnProperty: "y" } },
      ],
      ['args.toString == "x"', { args: {} }],
      // Maps the engine reads and this evaluator leaves to it.
      ['args.a.contains("x")', { args: new Map([["a", "x"]]) }],
      ['args.a.contains("x")', { args: Object.assign(Object.create(null), { a: "x" }) }],
      ['args.a.contains("x")', { args: Object.defineProperty({}, "a", { value: "x", enumerable: false }) }],
      [
        'args.a.contains("x")',
        { args: Object.defineProperty({ n: 1 }, "a", { value: "x", enumerable: false }) },
      ],
      ['args.a.contains("x")', { args: ["x"] }],
      ['args.a.contains("x")', { args: { a: ["x"] } }],
      ['args.a.contains("x")', { args: { a: new Uint8Array([120]) } }],
      ['args.a == "x"', { args: { a: "x", when: new Date(Number.NaN) } }],
      ['args.a == "x"', { args: { a: "x", n: 2 ** 60, big: 10n ** 30n, f: () => 1 } }],
      // Texts: surrogates, line separators, quotes, long.
      ['args.a.contains("\ud83d")', { args: { a: "\ud83d\ude00" } }],
      ['args.a.endsWith("\ude00") && !args.a.startsWith("\ude00")', { args: { a: "\ud83d\ude00" } }],
      ['args.a == "x\u2028y"', { args: { a: "x\u2028y" } }],
      ['args.a == \'say "hi"\' || args.a == "it\'s"', { args: { a: "it's" } }],
      ['args.a.contains("x")', { args: { a: `${"y".repeat(10_000_000)}x` } }],
      // The string variables, given what is not a text.
      ['input.contains("x")', { input: ["x"] }],
      ['input.contains("x")', { input: Object("x") }],
      ['input == "3"', { input: 3 }],
      ['output.startsWith("")', {}],
      // Spacing and Python spellings.
      ['args . a .contains ("x")\r\n&&\targs.b=="y"', { args: { a: "x", b: "y" } }],
      [
        'not args.a == "x" and args.and != "y" or args.not.contains("z")',
        { args: { a: "y", and: "y", not: "z" } },
      ],
      [
        'args.a.contains("x") and not args.b.contains("y") or not (args.c == "z")',
        { args: { a: "x", b: "y" } },
      ],
      // A test the fast path decides, beside one only the engine can answer.
      ['args.a == "x" || args.n == "1"', { args: { a: "y", n: 1 } }],
      ['args.a == "x" && args.missing == "1"', { args: { a: "x" } }],
      ['!(args.missing == "1") || args.a == "x"', { args: { a: "x" } }],
    ];
    for (const [expr, values] of cases)
      expect(
        outcome(() => compileExpression(expr)(values)),
        `${expr} over ${inspect(values)}`,
      ).toEqual(outcome(() => compileExpressionOnEngine(expr)(values)));
  });

  it("leaves to the engine texts the engine reads otherwise than it might seem", () => {
    for (const expr of [
      'args.a == b"x"',
      'args.a == R"x"',
      "args.a.contains('x', 'y')",
      'args.a\f== "x"',
      '\ufeffargs.a == "x"',
      'args.if == "x"',
      'args.a == "x" ? true : false',
      'args.a === "x"',
      'args.a !== "x"',
      'args.a = "x"',
      'args.a == "x" & args.b == "y"',
      'args["a"] == "x"',
      'args.a.contains("x") == true',
      'args.a in ["x"]',
      'args.a is "x"',
      'args.é == "x"',
      'args.a == "x" /* note */',
      'args.a == """"',
    ])
      expect(simpleExpression(rewritePythonOperators(expr).text, EXPRESSION_VARIABLES), expr).toBeUndefined();
  });
});
