/** Config policies → engine policies; `when` is CEL over `args`, compiled once. */
import { type Policy, policy } from "../policy/policy.js";
import { compileExpression } from "./conditions/expression.js";
import type { PolicyEntry } from "./schema.js";

export function buildPolicies(entries: readonly PolicyEntry[]): Policy[] {
  return entries.map((entry) => {
    const evaluate = entry.when === undefined ? undefined : compileExpression(entry.when);
    const options = {
      ...(evaluate ? { when: (args: unknown) => evaluate({ args: args ?? {} }) === true } : {}),
      ...(entry.reason ? { reason: entry.reason } : {}),
    };
    if (entry.decision === "deny") return policy.deny(entry.tool, options);
    if (entry.decision === "allow") return policy.allow(entry.tool, options);
    return policy.askUser(entry.tool, options);
  });
}
