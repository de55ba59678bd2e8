/**
 * `expression`: a CEL expression over the run's variables, never JS or Python
 * eval. Python-style spellings (`and`, `or`, `not`, `not in`, `True`) are rewritten
 * first (`cel/rewrite-python-operators.ts`). Compiled and type-checked once, at load: bad
 * syntax, an unknown variable (`trun > 5`) or a non-boolean expression is a load error.
 * The common guard conditions (a text against a string literal, `cel/simple-cel.ts`) are
 * evaluated without the engine where their values are plain, and compiled on it at first
 * need where not.
 *
 * Variables: `turn` `tools` `messages` `tokens` `max_turns` (int), `pressure` (double),
 * `tool` (`{name, fqn, params, result?, error?}` or null), `error` (`{type, message}` or
 * null), `args` (the tool's parameters, or {}), `input` (the run's input: the user's prompt, as
 * rewritten so far on `run_start`) and `output` (`run_end`'s answer, else ""). Integral
 * numbers inside them are CEL ints.
 *
 * Evaluation errors are never silently false: `tool.name == "x"` on an event without a tool
 * throws (the engine fails closed for blocking hooks and isolates inspect hooks), so write
 * `tool != null && tool.name == "x"`.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { lazy, loadPackage } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";
import type { Evaluation } from "../build/evaluation.js";
import { forEachNode } from "./cel/cel-ast.js";
import { LAST_INDEX, LINEAR_LAST_INDEX, lastIndexFrom, lastIndexLinear } from "./cel/linear-last-index.js";
import {
  checkMatchesPattern,
  LINEAR_MATCHES,
  linearRegExp,
  matchesCalls,
  renameMatchesCalls,
} from "./cel/linear-matches.js";
import { type RewrittenExpression, rewritePythonOperators } from "./cel/rewrite-python-operators.js";
import { ENGINE, simpleExpression } from "./cel/simple-cel.js";
import {
  budgetSpent,
  chargeValue,
  countSteps,
  GATE_FUNCTION,
  NEVER_FUNCTION,
  never,
  passGate,
  passSized,
  resetSteps,
  SIZED_FUNCTION,
} from "./cel/step-budget.js";
import { toCelValue } from "./cel/to-cel-value.js";
import { defineCondition } from "./condition-module.js";
import { ExpressionError } from "./expression-error.js";

export { ExpressionError };

export type CelVariableType = "int" | "double" | "bool" | "string" | "dyn";

export const EXPRESSION_VARIABLES: Readonly<Record<string, CelVariableType>> = {
  turn: "int",
  tools: "int",
  messages: "int",
  tokens: "int",
  max_turns: "int",
  pressure: "double",
  tool: "dyn",
  error: "dyn",
  args: "dyn",
  input: "string",
  output: "string",
};

export interface CompileExpressionOptions {
  /** The variables the expression may use and their CEL types; default EXPRESSION_VARIABLES. */
  variables?: Readonly<Record<string, CelVariableType>>;
  /** Reject at compile time an expression whose type is known and not bool (default true). */
  boolean?: boolean;
}

/** Evaluates with plain JS values (numbers, objects…); only the variables used are read. */
export type CompiledExpression = (variables: Readonly<Record<string, unknown>>) => unknown;

/** The CEL engine, loaded when the first expression is compiled. */
const celJs = lazy(() =>
  loadPackage<typeof import("@marcbachmann/cel-js")>("@marcbachmann/cel-js", "cel-js"),
);

const environments = new WeakMap<object, Environment>();

function environmentFor(variables: Readonly<Record<string, CelVariableType>>): Environment {
  let environment = environments.get(variables);
  if (!environment) {
    environment = new (celJs().Environment)({
      unlistedVariablesAreDyn: false,
      homogeneousAggregateLiterals: false,
    });
    for (const [name, type] of Object.entries(variables)) environment.registerVariable(name, type);
    // `matches` on the linear-time engine (cel/linear-matches.ts): compileExpression renames it.
    environment.registerFunction(`string.${LINEAR_MATCHES}(string): bool`, (text: string, pattern: string) =>
      linearRegExp(pattern).test(text),
    );
    // `lastIndexOf` in linear time (cel/linear-last-index.ts): onLinearEngine renames it.
    environment.registerFunction(`string.${LINEAR_LAST_INDEX}(string): int`, (text: string, search: string) =>
      BigInt(lastIndexLinear(text, search)),
    );
    environment.registerFunction(`string.${LINEAR_LAST_INDEX}(string, int): int`, lastIndexFrom);
    // The gate of each comprehension step (cel/step-budget.ts): compileExpression puts them there.
    environment.registerFunction(`${GATE_FUNCTION}(): bool`, passGate);
    environment.registerFunction(`${NEVER_FUNCTION}(): dyn`, never);
    environment.registerFunction(`${SIZED_FUNCTION}(dyn): dyn`, passSized);
    environments.set(variables, environment);
  }
  return environment;
}

function convert(value: unknown, type: CelVariableType | undefined): unknown {
  if (type === "int" && typeof value === "number" && Number.isFinite(value)) return BigInt(Math.trunc(value));
  if (type === "double" && typeof value === "bigint") return Number(value);
  return type === "dyn" ? toCelValue(value, chargeValue) : value;
}

/** Identifiers the AST names (variables, and macro locals, which are filtered out later). */
function identifiers(root: unknown, found: Set<string>): Set<string> {
  forEachNode(root, (node) => {
    if (node.op === "id" && typeof node.args === "string") found.add(node.args);
  });
  return found;
}

function summary(error: unknown): string {
  const cel = error as { summary?: unknown; message?: unknown };
  const text = typeof cel.summary === "string" ? cel.summary : String(cel.message ?? error).split("\n")[0]!;
  return text.replaceAll(LINEAR_MATCHES, "matches").replaceAll(LINEAR_LAST_INDEX, LAST_INDEX);
}

/** Compiles CEL (Python `and` / `or` / `not` accepted); throws an ExpressionError when malformed. */
export function compileExpression(expr: string, options: CompileExpressionOptions = {}): CompiledExpression {
  const variables = options.variables ?? EXPRESSION_VARIABLES;
  const rewritten = rewrite(expr);
  const simple = simpleExpression(rewritten.text, variables);
  if (!simple) return compileOnEngine(expr, rewritten, variables, options);
  // Evaluated here where it can be, and by the engine (compiled at first need) where not.
  let engine: CompiledExpression | undefined;
  const onEngine: CompiledExpression = (values) => {
    engine ??= compileOnEngine(expr, rewritten, variables, options);
    return engine(values);
  };
  const { evaluate, used } = simple;
  return (values) => {
    resetSteps(false);
    const context: Record<string, unknown> = {};
    try {
      for (const name of used) {
        const value = values[name];
        if (value !== undefined) context[name] = convert(value, variables[name]);
      }
    } catch (error) {
      // A value too deep or too large, or converted past the clock: the engine converts the
      // same values first, and fails with this. Never converted again, where a second
      // conversion could be in time.
      const cause = budgetSpent() ?? error;
      throw new ExpressionError({ expression: expr, phase: "evaluate", detail: summary(cause), cause });
    }
    const result = evaluate(context);
    return result === ENGINE ? onEngine(values) : result;
  };
}

/** The expression in CEL (Python's `and` / `or` / `not` rewritten); an error when it is empty. */
function rewrite(expr: string): RewrittenExpression {
  if (expr.trim() === "")
    throw new ExpressionError({ expression: expr, phase: "compile", detail: "empty expression" });
  return rewritePythonOperators(expr);
}

/** Compiles the expression on the CEL engine (loaded with its first expression). */
function compileOnEngine(
  expr: string,
  rewritten: RewrittenExpression,
  variables: Readonly<Record<string, CelVariableType>>,
  options: CompileExpressionOptions,
): CompiledExpression {
  // Where an offset of the text the engine runs was in `rewritten` (steps are counted in it).
  let before = (offset: number) => offset;
  const failure = (phase: "compile" | "evaluate", error: unknown) => {
    const start = (error as { range?: { start?: unknown } }).range?.start;
    const offset = typeof start === "number" ? rewritten.sourceOffset(before(start)) : undefined;
    return new ExpressionError({ expression: expr, phase, detail: summary(error), offset, cause: error });
  };
  let evaluate: ReturnType<Environment["parse"]>;
  try {
    evaluate = environmentFor(variables).parse(rewritten.text);
  } catch (error) {
    throw failure("compile", error);
  }
  const checked = evaluate.check();
  if (!checked.valid) throw failure("compile", checked.error);
  if (options.boolean !== false && checked.type !== "bool" && checked.type !== "dyn") {
    throw new ExpressionError({
      expression: expr,
      phase: "compile",
      detail: `expected a boolean, got ${checked.type}`,
    });
  }
  const refuse = (offset: number | undefined, detail: string, cause?: unknown) => {
    const start = offset === undefined ? undefined : rewritten.sourceOffset(offset);
    return new ExpressionError({ expression: expr, phase: "compile", detail, offset: start, cause });
  };
  const linear = onLinearEngine(evaluate, variables, rewritten.text, refuse);
  const counted = withCountedSteps(linear.parsed, linear.text, variables, refuse);
  evaluate = counted.parsed;
  before = counted.before;
  const gated = counted.gated;
  const used = [...identifiers(evaluate.ast, new Set())].filter((name) => Object.hasOwn(variables, name));
  return (values) => {
    resetSteps(gated);
    const context: Record<string, unknown> = {};
    let result: unknown;
    try {
      for (const name of used) {
        const value = values[name];
        if (value !== undefined) context[name] = convert(value, variables[name]);
      }
      result = evaluate(context);
    } catch (error) {
      throw failure("evaluate", budgetSpent() ?? error);
    }
    // Past the budget, closed gates answered to end their comprehensions: not a decision.
    const spent = budgetSpent();
    if (spent) throw failure("evaluate", spent);
    return result;
  };
}

/** Where the expression calls `name`, or undefined. */
function ownCall(root: unknown, name: string): number | undefined {
  let at: number | undefined;
  forEachNode(root, (node) => {
    if (at === undefined && (node.op === "call" || node.op === "rcall") && Array.isArray(node.args))
      if (node.args[0] === name) at = node.start ?? 0;
  });
  return at;
}

/**
 * The expression with each comprehension step gated by the evaluation's budget
 * (cel/step-budget.ts), and where each offset of its text was before; the parsed expression
 * itself when it has no comprehension.
 */
function withCountedSteps(
  parsed: ReturnType<Environment["parse"]>,
  text: string,
  variables: Readonly<Record<string, CelVariableType>>,
  refuse: (offset: number | undefined, detail: string, cause?: unknown) => ExpressionError,
): { parsed: ReturnType<Environment["parse"]>; before: (offset: number) => number; gated: boolean } {
  // The gate's functions are hookwise's own: not for an expression to call.
  for (const name of [GATE_FUNCTION, NEVER_FUNCTION, SIZED_FUNCTION]) {
    // A call's name is in the text it was parsed from.
    const own = text.includes(name) ? ownCall(parsed.ast, name) : undefined;
    if (own !== undefined) throw refuse(own, `unknown function ${name}()`);
  }
  let counted: ReturnType<typeof countSteps>;
  try {
    counted = countSteps(parsed.ast, text);
  } catch (error) {
    throw refuse(undefined, (error as Error).message, error);
  }
  if (counted.count === 0) return { parsed, before: counted.before, gated: false };
  let wrapped: ReturnType<Environment["parse"]>;
  try {
    wrapped = environmentFor(variables).parse(counted.text);
  } catch (error) {
    throw refuse(undefined, `comprehension steps could not be gated: ${summary(error)}`, error);
  }
  const checked = wrapped.check();
  if (!checked.valid)
    throw refuse(
      undefined,
      `comprehension steps could not be gated: ${summary(checked.error)}`,
      checked.error,
    );
  return { parsed: wrapped, before: counted.before, gated: true };
}

/**
 * The expression with its `matches` calls on the linear-time engine (each pattern a string
 * literal the engine runs, or a load error at the pattern) and its `lastIndexOf` calls on a
 * linear search.
 */
function onLinearEngine(
  parsed: ReturnType<Environment["parse"]>,
  variables: Readonly<Record<string, CelVariableType>>,
  text: string,
  refuse: (offset: number | undefined, detail: string, cause?: unknown) => ExpressionError,
): { parsed: ReturnType<Environment["parse"]>; text: string } {
  let calls: ReturnType<typeof matchesCalls>;
  let lastIndexCalls: ReturnType<typeof matchesCalls>;
  try {
    // The renamed functions are hookwise's own: written by hand they would skip the checks below.
    for (const name of [LINEAR_MATCHES, LINEAR_LAST_INDEX]) {
      const own = matchesCalls(parsed.ast, text, name)[0];
      if (own) throw refuse(own.nameOffset, `unknown function ${name}()`);
    }
    calls = matchesCalls(parsed.ast, text);
    lastIndexCalls = matchesCalls(parsed.ast, text, LAST_INDEX);
  } catch (error) {
    if (ExpressionError.isInstance(error)) throw error;
    throw refuse(undefined, (error as Error).message, error);
  }
  if (calls.length === 0 && lastIndexCalls.length === 0) return { parsed, text };
  for (const call of calls) {
    try {
      checkMatchesPattern(call);
    } catch (error) {
      throw refuse(call.pattern.start, (error as Error).message, error);
    }
  }
  const renamedText = renameMatchesCalls(
    renameMatchesCalls(text, calls),
    lastIndexCalls,
    LAST_INDEX,
    LINEAR_LAST_INDEX,
  );
  let renamed: ReturnType<Environment["parse"]>;
  try {
    renamed = environmentFor(variables).parse(renamedText);
  } catch (error) {
    throw refuse(undefined, summary(error), error);
  }
  const checked = renamed.check();
  if (!checked.valid) throw refuse(undefined, summary(checked.error), checked.error);
  // Every call moved (a comment that names matches() between its parentheses would not).
  const left = (name: string) => {
    try {
      return matchesCalls(renamed.ast, renamedText, name).length;
    } catch {
      return 1;
    }
  };
  for (const name of ["matches", LAST_INDEX])
    if (left(name) > 0) throw refuse(undefined, `${name}() could not be placed in the expression`);
  return { parsed: renamed, text: renamedText };
}

/**
 * An expression's result as a boolean. An expression over `dyn` values (`args.recursive`)
 * type-checks at load and may still answer a string or a number at run time: that is an
 * evaluation error (so the guard fails closed), never a silent "false".
 */
export function booleanResult(expression: string, result: unknown): boolean {
  if (typeof result === "boolean") return result;
  throw new ExpressionError({
    expression,
    phase: "evaluate",
    detail: `expected a boolean result, got ${result === null ? "null" : Array.isArray(result) ? "a list" : typeof result}`,
  });
}

/**
 * The expression condition's variables, read lazily (`tokens` is only estimated if used):
 * one object per evaluation, its getters on the prototype (no closure each).
 */
class ExpressionVariables {
  readonly #evaluation: Evaluation;

  constructor(evaluation: Evaluation) {
    this.#evaluation = evaluation;
  }
  get turn() {
    return this.#evaluation.stats.turn;
  }
  get tools() {
    return this.#evaluation.stats.tools;
  }
  get messages() {
    return this.#evaluation.stats.messages;
  }
  get tokens() {
    return this.#evaluation.stats.tokens;
  }
  get pressure() {
    return this.#evaluation.stats.pressure;
  }
  get max_turns() {
    return this.#evaluation.stats.max_turns;
  }
  get tool() {
    return this.#evaluation.tool ?? null;
  }
  get error() {
    return this.#evaluation.error ?? null;
  }
  get args() {
    return this.#evaluation.tool?.params ?? {};
  }
  get input() {
    const { event } = this.#evaluation;
    return event.type === "run_start" ? event.input : this.#evaluation.context.input;
  }
  get output() {
    const { event } = this.#evaluation;
    return event.type === "run_end" ? event.output : "";
  }
}

/** The expression condition's variables, read lazily (`tokens` is only estimated if used). */
export function expressionVariables(evaluation: Evaluation): Readonly<Record<string, unknown>> {
  return new ExpressionVariables(evaluation) as unknown as Readonly<Record<string, unknown>>;
}

const description =
  'A CEL expression over turn, tools, messages, tokens, pressure, max_turns, tool, error, args, input, output ("and"/"or"/"not" accepted).';

export const expression = defineCondition({
  type: "expression",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("expression"),
        expr: z.string().min(1).describe('CEL, e.g. "turn > 5 and pressure > 0.6"'),
      })
      .describe(description),
  compile(config) {
    const evaluate = compileExpression(config.expr);
    return (evaluation) => booleanResult(config.expr, evaluate(expressionVariables(evaluation)));
  },
  example: { type: "expression", expr: "turn > 5 and pressure > 0.6" },
});

/**
 * Compiles the expression on the CEL engine alone, never on the evaluator of common guard
 * conditions (`cel/simple-cel.ts`): what that evaluator's answers are checked against.
 */
export function compileExpressionOnEngine(
  expr: string,
  options: CompileExpressionOptions = {},
): CompiledExpression {
  const variables = options.variables ?? EXPRESSION_VARIABLES;
  return compileOnEngine(expr, rewrite(expr), variables, options);
}
