/**
 * The conditions most guards are written with, evaluated without the CEL engine: tests of
 * one text against a string literal, joined by `&&`, `||`, `!` and parentheses —
 *
 *     args.command.contains("rm -rf") || args.file_path.endsWith(".env")
 *     tool.name == "Bash" && !args.command.startsWith("git ")
 *
 * A `hookwise hook` call is a new process, and loading the engine is about a tenth of it.
 *
 * This is not a second CEL. Its language is a small part of CEL's, parsed exactly as CEL
 * parses it, and anything outside it (an escape in a literal, a comparison after `!`, a
 * number, any other function) is left to the engine, which compiles it as before. Over a
 * value it evaluates, it answers only where CEL's answer is plain: each text a field of a
 * plain map reached through plain maps, present and a string. Anywhere else (a missing
 * field, a number, a list, `null`) it answers `ENGINE`, and the whole expression is then
 * evaluated by the engine, over the same values, which gives CEL's answer — its error, or
 * the value `||` and `&&` make of one. So an answer from here is the engine's answer: what
 * `contains`, `startsWith`, `endsWith`, `==` and `!=` on two texts, and `&&`, `||`, `!` on two
 * booleans, answer in the engine (`String.prototype.includes` and the others, and `===`).
 * A differential test runs both over generated expressions and values.
 *
 * Nor does it take what the engine would refuse for its size: the engine parses at most 250
 * levels (a parenthesis, a field, a call's argument) and 100,000 nodes, and checks types
 * recursively, so a few thousand tests joined by `||` overflow its stack. Past the bounds
 * below, far inside those, the engine compiles the expression, or refuses it.
 */
import type { CelVariableType } from "../expression.js";

/** What this evaluator cannot answer: the engine evaluates the whole expression. */
export const ENGINE: unique symbol = Symbol("the CEL engine decides");

export type SimpleEvaluation = (context: Readonly<Record<string, unknown>>) => boolean | typeof ENGINE;

export interface SimpleExpression {
  evaluate: SimpleEvaluation;
  /** The variables it reads. */
  used: string[];
}

const METHODS: Readonly<Record<string, (text: string, literal: string) => boolean>> = {
  contains: (text, literal) => text.includes(literal),
  startsWith: (text, literal) => text.startsWith(literal),
  endsWith: (text, literal) => text.endsWith(literal),
};

/** CEL's reserved words: never a field name here (the engine says what they are). */
const RESERVED = new Set([
  "as",
  "break",
  "const",
  "continue",
  "else",
  "false",
  "for",
  "function",
  "if",
  "import",
  "in",
  "let",
  "loop",
  "namespace",
  "null",
  "package",
  "return",
  "true",
  "var",
  "void",
  "while",
]);

type Token =
  | { kind: "name"; text: string }
  | { kind: "string"; text: string }
  | { kind: "punct"; text: "." | "(" | ")" | "!" | "&&" | "||" | "==" | "!=" };

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
/** A quoted literal with no escape and no line break in it (`"…"` or `'…'`, not tripled). */
const DOUBLE = /"([^"\\\n\r]*)"/y;
const SINGLE = /'([^'\\\n\r]*)'/y;
/** The whitespace the engine reads (not JavaScript's `\s`, which has more; nor a form feed). */
const SPACE = /[ \t\n\r]*/y;
const PUNCT = ["&&", "||", "==", "!=", ".", "(", ")", "!"] as const;

/**
 * The bounds of what is taken here: its tokens (some 100 tests), how deep it nests in
 * parentheses and `!`, and the fields one test reads (a value nests no deeper: to-cel-value.ts).
 */
const MAX_TOKENS = 1024;
const MAX_NESTING = 32;
const MAX_FIELDS = 64;

/** The text's tokens, or undefined where it holds anything else. */
function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let at = 0;
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const found = pattern.exec(text);
    if (found) at = pattern.lastIndex;
    return found;
  };
  for (;;) {
    match(SPACE);
    if (at >= text.length) return tokens;
    if (tokens.length === MAX_TOKENS) return undefined;
    const char = text[at]!;
    if (char === '"' || char === "'") {
      if (text.startsWith(char.repeat(3), at)) return undefined;
      const found = match(char === '"' ? DOUBLE : SINGLE);
      if (!found) return undefined;
      tokens.push({ kind: "string", text: found[1]! });
      continue;
    }
    const name = match(NAME);
    if (name) {
      tokens.push({ kind: "name", text: name[0] });
      continue;
    }
    const punct = PUNCT.find((candidate) => text.startsWith(candidate, at));
    if (!punct) return undefined;
    at += punct.length;
    tokens.push({ kind: "punct", text: punct });
  }
}

/** Thrown while parsing: the text is not in this language. */
const OUTSIDE = Symbol("outside");

/**
 * The expression, when it is in this evaluator's language over `variables` (a variable
 * holding a map, `dyn`, or a text, `string`); undefined when the engine must compile it.
 */
export function simpleExpression(
  text: string,
  variables: Readonly<Record<string, CelVariableType>>,
): SimpleExpression | undefined {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return undefined;
  const used = new Set<string>();
  let at = 0;
  let nesting = 0;
  const peek = (): Token | undefined => tokens[at];
  const isPunct = (text: string) => {
    const token = peek();
    return token?.kind === "punct" && token.text === text;
  };
  const expect = (kind: Token["kind"], text?: string): string => {
    const token = tokens[at++];
    if (!token || token.kind !== kind || (text !== undefined && token.text !== text)) throw OUTSIDE;
    return token.text;
  };

  // or := and ("||" and)*
  const or = (): SimpleEvaluation => {
    let left = and();
    while (isPunct("||")) {
      at++;
      const a = left;
      const b = and();
      left = (context) => {
        const first = a(context);
        return first === true || first === ENGINE ? first : b(context);
      };
    }
    return left;
  };
  // and := unary ("&&" unary)*
  const and = (): SimpleEvaluation => {
    let left = unary();
    while (isPunct("&&")) {
      at++;
      const a = left;
      const b = unary();
      left = (context) => {
        const first = a(context);
        return first === false || first === ENGINE ? first : b(context);
      };
    }
    return left;
  };
  // unary := "!" unary | "(" or ")" | test; CEL's `!` binds tighter than `==`, so
  // `!args.a == "x"` is `(!args.a) == "x"`: after `!`, a comparison is the engine's.
  const unary = (): SimpleEvaluation => {
    if (!isPunct("!") && !isPunct("(")) return test(true);
    if (++nesting > MAX_NESTING) throw OUTSIDE;
    let evaluation: SimpleEvaluation;
    if (isPunct("!")) {
      at++;
      const operand = isPunct("!") || isPunct("(") ? unary() : test(false);
      evaluation = (context) => {
        const value = operand(context);
        return value === ENGINE ? value : !value;
      };
    } else {
      at++;
      evaluation = or();
      expect("punct", ")");
    }
    nesting--;
    return evaluation;
  };
  // test := path "." method "(" string ")" | path ("==" | "!=") string (when comparing)
  const test = (comparing: boolean): SimpleEvaluation => {
    const root = expect("name");
    const type = Object.hasOwn(variables, root) ? variables[root] : undefined;
    if (type !== "dyn" && type !== "string") throw OUTSIDE;
    used.add(root);
    const fields: string[] = [];
    while (isPunct(".")) {
      at++;
      const name = expect("name");
      if (isPunct("(")) {
        at++;
        const method = Object.hasOwn(METHODS, name) ? METHODS[name]! : undefined;
        if (!method || RESERVED.has(name)) throw OUTSIDE;
        const literal = expect("string");
        expect("punct", ")");
        const read = reader(root, type, fields);
        return (context) => {
          const value = read(context);
          return value === ENGINE ? value : method(value, literal);
        };
      }
      if (RESERVED.has(name) || fields.length === MAX_FIELDS) throw OUTSIDE;
      fields.push(name);
    }
    if (!comparing || !(isPunct("==") || isPunct("!="))) throw OUTSIDE;
    const equal = tokens[at++]!.text === "==";
    const literal = expect("string");
    const read = reader(root, type, fields);
    return (context) => {
      const value = read(context);
      return value === ENGINE ? value : (value === literal) === equal;
    };
  };

  try {
    const evaluate = or();
    if (at !== tokens.length) return undefined;
    return { evaluate, used: [...used] };
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

/** Reads `root.fields…` as a text, or ENGINE where that is not plainly a string. */
function reader(
  root: string,
  type: CelVariableType,
  fields: readonly string[],
): (context: Readonly<Record<string, unknown>>) => string | typeof ENGINE {
  // A `string` variable has no fields: selecting one is a type error, the engine's to give.
  if (type === "string" && fields.length > 0) throw OUTSIDE;
  return (context) => {
    let value: unknown = Object.hasOwn(context, root) ? context[root] : undefined;
    for (const field of fields) {
      if (!isPlainMap(value) || !Object.hasOwn(value, field)) return ENGINE;
      value = (value as Record<string, unknown>)[field];
    }
    return typeof value === "string" ? value : ENGINE;
  };
}

/**
 * A map as the engine reads one: it tells a value's type by its `constructor`, so a map with a
 * field of that name (`{"constructor": "x"}`) is an unsupported type to it, an error.
 */
function isPlainMap(value: unknown): value is object {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    (value as { constructor?: unknown }).constructor === Object
  );
}
