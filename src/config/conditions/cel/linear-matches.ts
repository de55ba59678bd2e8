/**
 * CEL's `matches()` is RE2: linear in the text. The CEL engine runs it on JavaScript's
 * backtracking RegExp, where a pattern like `^(\w+\s?)*$` takes exponential time on a few
 * dozen characters the model chose — and a regular expression cannot be interrupted, so a
 * hook's timeout never fires and the process hangs. hookwise therefore runs every
 * `matches` on V8's linear-time engine (the RegExp `l` flag), and refuses at load:
 *
 * - a pattern that is not a string literal (the run's data would choose it);
 * - a pattern the linear engine cannot run (backreferences, lookarounds, a counted
 *   repetition above 16).
 *
 * The call is renamed in the expression's text to a function of the same length, so every
 * position (errors point into what the user wrote) stays where it was.
 */

import { forEachNode, isNode } from "./cel-ast.js";

/** What `matches` is renamed to: as long as "matches", so offsets do not move. */
export const LINEAR_MATCHES = "matchRE";
const NAME = "matches";

/** A `matches` call in the text: where its name starts, and its pattern argument. */
export interface MatchesCall {
  nameOffset: number;
  pattern: { op: string; args: unknown; start?: number };
}

/**
 * Every call of `name` in the AST (method `x.matches(p)` or global `matches(x, p)`).
 * Throws when a call's name cannot be placed in the text (it is then refused, never run
 * on the backtracking engine).
 */
export function matchesCalls(root: unknown, text: string, name = NAME): MatchesCall[] {
  const found: MatchesCall[] = [];
  // A call's name is in the text it was parsed from: most expressions call none of these.
  if (!text.includes(name)) return found;
  forEachNode(root, (node) => {
    const args = node.args;
    if ((node.op === "rcall" || node.op === "call") && Array.isArray(args) && args[0] === name) {
      const method = node.op === "rcall";
      const list = (method ? args[2] : args[1]) as unknown[];
      const first = list[0];
      const pattern = list[method ? 0 : 1];
      if (!isNode(first) || !isNode(pattern)) throw new Error(`${name}() takes a text and a pattern`);
      const from = method ? (isNode(args[1]) ? (args[1].end ?? 0) : 0) : (node.start ?? 0);
      const at = text.lastIndexOf(name, first.start ?? text.length);
      if (at < from) throw new Error(`${name}() could not be placed in the expression`);
      found.push({ nameOffset: at, pattern });
    }
  });
  return found;
}

/** The text with each call's name (`from`) replaced by `to`, a name of the same length. */
export function renameMatchesCalls(
  text: string,
  calls: readonly MatchesCall[],
  from = NAME,
  to = LINEAR_MATCHES,
): string {
  let out = text;
  for (const { nameOffset } of calls) {
    out = out.slice(0, nameOffset) + to + out.slice(nameOffset + from.length);
  }
  return out;
}

let engineOn = false;
const compiled = new Map<string, RegExp>();

/** The pattern on V8's linear-time engine; throws with what is wrong when it cannot run there. */
export function linearRegExp(pattern: string): RegExp {
  let regexp = compiled.get(pattern);
  if (regexp) return regexp;
  if (!engineOn) {
    // Only makes the `l` flag available: no other RegExp of the process changes.
    process.getBuiltinModule("node:v8").setFlagsFromString("--enable-experimental-regexp-engine");
    engineOn = true;
  }
  try {
    regexp = new RegExp(pattern, "l");
  } catch (error) {
    const message = (error as Error).message;
    if (/linear time/.test(message)) {
      throw new Error(
        `${NAME}("${pattern}"): the pattern cannot run in linear time (backreferences, lookarounds and counted repetitions above 16 are not supported; check a length with size())`,
      );
    }
    throw new Error(`${NAME}("${pattern}"): ${message.replace(/^Invalid regular expression: /, "")}`);
  }
  compiled.set(pattern, regexp);
  return regexp;
}

/** The checks of one call's pattern at load: a string literal the linear engine runs. */
export function checkMatchesPattern(call: MatchesCall): void {
  if (call.pattern.op !== "value" || typeof call.pattern.args !== "string") {
    throw new Error(
      `${NAME}() pattern must be a string literal: a pattern from the run's data could take exponential time`,
    );
  }
  linearRegExp(call.pattern.args);
}
