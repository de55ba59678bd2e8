import { describe, expect, it } from "vitest";
import { rewriteFully, rewritePythonOperators } from "./rewrite-python-operators.js";

/** Inputs of the expression tests, and the spellings the rewriter treats specially. */
const WRITTEN = [
  "turn > 5 and pressure > 0.6",
  "turn > 5 and pressure >",
  "turn > 1 and 'x",
  "turn > 1\n  and ",
  "trun > 5",
  "turn > 'five'",
  "turn + 1",
  "  ",
  "",
  'args.path.startsWith("/etc")',
  "process.exit(1)",
  "__import__('os')",
  'args.command.matches("^(a+)+$")',
  'args.command.contains("forbidden-0")',
  'args.file_path.endsWith(".secret0")',
  "args.paths.exists(p, args.paths.filter(q, q == p).size() > 1)",
  "args.paths.all(p, !args.paths.exists(q, q == p + 'x'))",
  "[1, 2, 3].map(x, x * 2)",
  "a > 1 and b or c",
  "x == True or y == None and z != False",
  "not a > 1 and b",
  "x or not y",
  "not not a",
  "(not a) and b",
  "f(not a, b)",
  "a not in b",
  "x and a not in [1, 2]",
  "not a not in b",
  'name == "salt and pepper" or x',
  "s == 'it\\'s not or' and t",
  's == """a "and" b""" and t',
  "s == r'\\' and t",
  "args.and == 1 and android or orange and notice",
  "args.not",
  "args . and",
  "constructor or toString and __proto__",
  "a && !b || c != d",
  "1and 2",
  "x1and y",
  "_and",
  "and_",
  "Trueish == Falsey",
  "`and` == 1",
  "r'x' and 'y'",
  "rb'\\'and",
  "tool.error.notice",
  "args.command.contains('or')",
  "'a' 'b' or",
];

/** Pieces the generated expressions are made of: words, near-words, quotes, brackets, operators. */
const PIECES = [
  "and",
  "or",
  "not",
  "in",
  "True",
  "False",
  "None",
  "android",
  "notice",
  "or_",
  "_or",
  "x1",
  "1",
  "args",
  ".",
  " ",
  "  ",
  "\n",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  "?",
  ":",
  "&&",
  "||",
  "!",
  "==",
  ">",
  "'",
  '"',
  "'''",
  '"""',
  "`",
  "\\",
  "r",
  "b",
  "R",
  "a",
  "e",
  "s",
  "_",
  "0",
];

/** A deterministic stream of numbers in [0, 1) (a linear congruential generator). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function generated(count: number): string[] {
  const next = numbers(20261129);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 12);
    let text = "";
    for (let j = 0; j < length; j++) text += PIECES[Math.floor(next() * PIECES.length)];
    out.push(text);
  }
  return out;
}

function expectSameAsFull(source: string): void {
  const fast = rewritePythonOperators(source);
  const full = rewriteFully(source);
  expect(fast.text, source).toBe(full.text);
  for (let offset = -2; offset <= full.text.length + 2; offset++)
    expect(fast.sourceOffset(offset), `${JSON.stringify(source)} at ${offset}`).toBe(
      full.sourceOffset(offset),
    );
}

describe("rewritePythonOperators's shortcut for text without Python words", () => {
  it("gives what the full rewriter gives on the written expressions", () => {
    for (const source of WRITTEN) expectSameAsFull(source);
  });

  it("gives what the full rewriter gives on generated expressions", () => {
    const sources = generated(5000);
    for (const source of sources) expectSameAsFull(source);
    // Both ways are exercised: text the rewriter changes, and text it leaves alone.
    const changed = sources.filter((source) => rewriteFully(source).text !== source).length;
    expect(changed).toBeGreaterThan(500);
    expect(sources.length - changed).toBeGreaterThan(500);
  });

  it("returns CEL without Python words as it is, each offset its own", () => {
    const rewritten = rewritePythonOperators('args.command.contains("forbidden-0")');
    expect(rewritten.text).toBe('args.command.contains("forbidden-0")');
    expect(rewritten.sourceOffset(3)).toBe(3);
    expect(rewritten.sourceOffset(99)).toBe(36);
  });
});
