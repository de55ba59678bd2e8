/**
 * A matcher group's `matcher`, read as Claude Code reads it (hooks reference, "Matcher
 * patterns"): `"*"`, `""` or none matches everything; a matcher of letters, digits, `_` and
 * `|` only is an exact name or a `|`-separated list of exact names (`Bash`, `Edit|Write`);
 * anything else is a JavaScript regular expression, unanchored (`mcp__memory__.*`,
 * `^Notebook`). Case-sensitive. A name list is checked against every name a subject goes
 * by (a tool's Claude Code name and its hookwise qualified name).
 */
import { HookwiseError } from "../../../../errors/hookwise-error.js";

export type ClaudeMatcher = (names: readonly string[]) => boolean;

const EXACT = /^[A-Za-z0-9_|]+$/;

const ALL: ClaudeMatcher = () => true;

/** Throws a `HookwiseError` naming the problem for a regular expression that does not compile. */
export function compileClaudeMatcher(matcher: string | undefined): ClaudeMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return ALL;
  if (EXACT.test(matcher)) {
    const names = new Set(matcher.split("|").filter(Boolean));
    return (candidates) => candidates.some((name) => names.has(name));
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(matcher);
  } catch (error) {
    throw new HookwiseError(
      `matcher "${matcher}" is not a valid regular expression: ${(error as Error).message}`,
    );
  }
  return (candidates) => candidates.some((name) => pattern.test(name));
}
