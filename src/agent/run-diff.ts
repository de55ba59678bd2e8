/**
 * What a recorded call's hooks decided, in a word, and the difference between two records
 * of the same run (the recorded one and its replay): which calls are now denied, rewritten,
 * asked or skipped where they were not, and which steps get other injections or patches.
 */
import type { RecordedCall, RecordedDecision, RunRecord } from "./run-record.js";

export type VerdictKind = "ran" | "rewritten" | "denied" | "asked" | "skipped" | "failed" | "not_run";

export interface CallVerdict {
  kind: VerdictKind;
  /** The hook that decided it (a deny, ask, skip, the last rewrite). */
  hook?: string;
  reason?: string;
  /** The arguments a rewrite produced. */
  args?: unknown;
}

const DECIDING = new Set(["deny", "ask", "skip", "rewriteArgs", "terminate", "error", "timeout", "aborted"]);

export function verdictOf(call: RecordedCall): CallVerdict {
  const decisions = call.hooks.filter((entry) => entry.event === "tool_call" && DECIDING.has(entry.effect));
  const failure = decisions.find((entry) =>
    ["error", "timeout", "aborted", "terminate"].includes(entry.effect),
  );
  if (failure)
    return { kind: "failed", hook: failure.hook, reason: String(failure.detail ?? failure.effect) };
  const deny = decisions.find((entry) => entry.effect === "deny");
  if (deny) return { kind: "denied", hook: deny.hook, reason: String(deny.detail ?? "") };
  const ask = decisions.find((entry) => entry.effect === "ask");
  if (ask && !call.executed) return { kind: "asked", hook: ask.hook, reason: String(ask.detail ?? "") };
  const skip = decisions.find((entry) => entry.effect === "skip");
  if (skip) return { kind: "skipped", hook: skip.hook };
  const rewrite = decisions.filter((entry) => entry.effect === "rewriteArgs").at(-1);
  if (rewrite && call.executed) return { kind: "rewritten", hook: rewrite.hook, args: rewrite.detail };
  if (ask && call.executed) return { kind: "asked", hook: ask.hook, reason: "approved" };
  return { kind: call.executed ? "ran" : "not_run" };
}

function sameVerdict(a: CallVerdict, b: CallVerdict): boolean {
  return (
    a.kind === b.kind &&
    a.hook === b.hook &&
    JSON.stringify(a.args ?? null) === JSON.stringify(b.args ?? null)
  );
}

export interface CallChange {
  step: number;
  toolCallId: string;
  tool: string;
  args: unknown;
  /** What was decided when the session was recorded. */
  before: CallVerdict;
  /** What the replayed config decides. */
  after: CallVerdict;
}

export interface StepChange {
  step: number;
  /** `hook effect` entries (injects, patches, retries, terminations) only then, or only now. */
  onlyThen: string[];
  onlyNow: string[];
}

export interface RunDiff {
  runId: string;
  input: string;
  outcome: { before: string; after: string };
  calls: CallChange[];
  steps: StepChange[];
  /** How many calls were compared. */
  compared: number;
}

const STEP_EFFECTS = new Set([
  "inject",
  "patch",
  "retry",
  "terminate",
  "rewriteInput",
  "rewriteOutput",
  "deny",
]);

function stepEffects(decisions: readonly RecordedDecision[]): string[] {
  return decisions
    .filter((entry) => STEP_EFFECTS.has(entry.effect))
    .map((entry) => `${entry.hook} ${entry.effect} (${entry.event})`);
}

function minus(a: readonly string[], b: readonly string[]): string[] {
  const rest = [...b];
  return a.filter((item) => {
    const at = rest.indexOf(item);
    if (at < 0) return true;
    rest.splice(at, 1);
    return false;
  });
}

export function diffRuns(then: RunRecord, now: RunRecord): RunDiff {
  const calls: CallChange[] = [];
  const steps: StepChange[] = [];
  let compared = 0;
  const nowCalls = new Map(
    now.steps.flatMap((step) =>
      step.calls.map((call) => [call.toolCallId, { step: step.index, call }] as const),
    ),
  );
  for (const step of then.steps) {
    for (const call of step.calls) {
      compared++;
      const replayed = nowCalls.get(call.toolCallId);
      const before = verdictOf(call);
      const after: CallVerdict = replayed
        ? verdictOf(replayed.call)
        : { kind: "not_run", reason: "not reached" };
      if (!sameVerdict(before, after))
        calls.push({
          step: step.index,
          toolCallId: call.toolCallId,
          tool: call.qualifiedName,
          args: call.args,
          before,
          after,
        });
    }
  }
  const count = Math.max(then.steps.length, now.steps.length);
  for (let index = -1; index < count; index++) {
    const a = stepEffects(index < 0 ? then.hooks : (then.steps[index]?.hooks ?? []));
    const b = stepEffects(index < 0 ? now.hooks : (now.steps[index]?.hooks ?? []));
    const onlyThen = minus(a, b);
    const onlyNow = minus(b, a);
    if (onlyThen.length || onlyNow.length) steps.push({ step: index, onlyThen, onlyNow });
  }
  return {
    runId: then.runId,
    input: then.input,
    outcome: { before: then.outcome, after: now.outcome },
    calls,
    steps,
    compared,
  };
}

/** A verdict in words: `denied by no-delete: "…"`. */
export function describeVerdict(verdict: CallVerdict): string {
  switch (verdict.kind) {
    case "ran":
      return "ran";
    case "not_run":
      return verdict.reason ? `did not run (${verdict.reason})` : "did not run";
    case "rewritten":
      return `ran with arguments rewritten by ${verdict.hook} to ${JSON.stringify(verdict.args)}`;
    case "denied":
      return `denied by ${verdict.hook}${verdict.reason ? `: ${JSON.stringify(verdict.reason)}` : ""}`;
    case "asked":
      return `asked by ${verdict.hook}${verdict.reason ? ` (${verdict.reason})` : ""}`;
    case "skipped":
      return `skipped by ${verdict.hook}`;
    case "failed":
      return `failed in ${verdict.hook}: ${verdict.reason}`;
  }
}
