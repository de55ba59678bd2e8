/**
 * A verdict as Codex CLI's hooks can take it. Codex reads Claude Code's wire, but treats an
 * answer it does not support as the hook's own failure and then runs the call as if no hook
 * had spoken: on PreToolUse an `ask`, an `allow` without `updatedInput`, a
 * `permissionDecisionReason` without a decision, and `continue: false`; on PermissionRequest
 * `continue: false` and `updatedInput`. So, before the wire is written:
 *
 * - an `ask` on a tool call is refused, saying approval is needed (Codex's hooks cannot ask);
 * - a hook that ends the run refuses the call it was about (Codex cannot end it from there);
 * - an `allow` that rewrites nothing is no decision: Codex's own rules apply, as they would;
 * - a permission prompt's allow with new arguments leaves the prompt to the user;
 * - a compaction refused ends the run: Codex's PreCompact takes only `continue: false` (any
 *   other field, `decision: "block"` too, makes the answer the hook's failure, and it compacts).
 */
import type { HarnessEvent, HarnessVerdict } from "../types.js";

export function codexVerdict(event: HarnessEvent, verdict: HarnessVerdict): HarnessVerdict {
  if (event.kind === "pre_compact") {
    if (verdict.decision !== "deny" && verdict.stop === undefined) return verdict;
    const { reason: _reason, ...rest } = verdict;
    return {
      ...rest,
      decision: "none",
      stop: verdict.stop ?? verdict.reason ?? "compaction refused by hookwise",
    };
  }
  if (event.kind !== "tool_call" && event.kind !== "approval_request") return verdict;
  const { stop, ...rest } = verdict;
  if (stop !== undefined) return { ...rest, decision: "deny", reason: verdict.reason ?? stop };
  if (event.kind === "approval_request") {
    if (verdict.decision !== "allow" || verdict.updatedInput === undefined) return verdict;
    const { updatedInput: _rewritten, ...unchanged } = verdict;
    return { ...unchanged, decision: "none" };
  }
  if (verdict.decision === "ask") {
    return {
      ...verdict,
      decision: "deny",
      reason: `needs approval, which Codex CLI hooks cannot ask for: ${verdict.reason ?? "approval required"}`,
    };
  }
  if (verdict.decision === "deny" || verdict.updatedInput !== undefined) return verdict;
  // Neither a deny nor a rewrite: Codex takes no decision and no reason without one.
  const { reason: _reason, ...silent } = verdict;
  return { ...silent, decision: "none" };
}
