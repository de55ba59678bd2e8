/**
 * Config policies → engine policies; `when` is CEL over `args`, compiled once, at the first
 * call the policy's tool pattern matches: a process that answers one event (`hookwise hook`)
 * compiles only the conditions of the policies that event reaches. Validation compiled each
 * of them already, so none fails here; one that did would throw where the policy is
 * evaluated, which fails closed.
 */
import { lazy } from "../../deps/load-package.js";
import { type Policy, policy } from "../../policy/policy.js";
import { booleanResult, compileExpression } from "../conditions/expression.js";
import type { PolicyEntry } from "../schema/schema.js";

export function buildPolicies(entries: readonly PolicyEntry[]): Policy[] {
  return entries.map((entry) => {
    const { when } = entry;
    const evaluate = when === undefined ? undefined : lazy(() => compileExpression(when));
    const options = {
      // A non-boolean answer (a `dyn` argument the model sent as "yes") throws: the policy fails closed.
      ...(evaluate
        ? { when: (args: unknown) => booleanResult(when!, evaluate()({ args: args ?? {} })) }
        : {}),
      ...(entry.reason ? { reason: entry.reason } : {}),
    };
    if (entry.decision === "deny") return policy.deny(entry.tool, options);
    if (entry.decision === "allow") return policy.allow(entry.tool, options);
    return policy.askUser(entry.tool, options);
  });
}
