/**
 * What became of a harness's tool call, in words. hookwise answers before the harness runs
 * the call, so its record never holds a run of its own: a call hookwise let through is
 * "allowed: Claude Code runs it", or, with no decision, "left to Claude Code's own rules" —
 * never "did not run". A call denied with no firing of its own event (a session hookwise
 * stopped at its start, the second event of a call answered as its first) reads "denied".
 * Calls of hookwise's own runs read as `describeVerdict` says.
 */
import { type CallVerdict, describeVerdict } from "../agent/run-diff.js";
import { HARNESSES } from "../harnesses/protocols.js";
import type { HarnessName } from "../harnesses/types.js";

export function harnessVerdictText(
  verdict: CallVerdict,
  harness: { name: string; decision: string } | undefined,
): string {
  if (verdict.kind !== "not_run" || harness === undefined) return describeVerdict(verdict);
  const label = HARNESSES[harness.name as HarnessName]?.label ?? harness.name;
  if (harness.decision === "allow") return `allowed: ${label} runs it`;
  if (harness.decision === "deny") return `denied: ${label} does not run it`;
  return `not decided: left to ${label}'s own rules`;
}
