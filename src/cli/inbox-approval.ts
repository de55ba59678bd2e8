/**
 * `runtime.approvals: inbox` for `hookwise hook`: an event the config answered with `ask`
 * waits, bounded, for a decision in the approval inbox of a `hookwise serve` on the same
 * store, instead of the harness's own prompt; no decision in time denies it.
 */
import { ApprovalMailbox } from "../approvals/approval-mailbox.js";
import { inboxVerifierFromEnv } from "../approvals/inbox-signature.js";
import type { HarnessHooks } from "../config/load-harness-hooks.js";
import type { HarnessOutcome } from "../harnesses/decide-harness-event.js";
import { HARNESSES } from "../harnesses/protocols.js";
import type { HarnessEvent } from "../harnesses/types.js";

/** What the hook keeps for itself after the wait: its answer and record. */
const MARGIN_MS = 3_000;

/**
 * The outcome with its `ask` decided in the inbox, when the config says so; `outcome`
 * itself otherwise. `until` is the hook's own deadline (epoch ms).
 */
export async function decideAskInInbox(
  hooks: HarnessHooks,
  event: HarnessEvent,
  outcome: HarnessOutcome,
  options: { until: number; signal?: AbortSignal; log?: (line: string) => void },
): Promise<HarnessOutcome> {
  const runtime = hooks.config.config.runtime;
  if (outcome.verdict.decision !== "ask" || runtime?.approvals !== "inbox" || !outcome.tool) return outcome;
  const left = options.until - MARGIN_MS - Date.now();
  const waitMs = Math.min(left, (runtime.approval_wait ?? Number.POSITIVE_INFINITY) * 1000);
  const asked = outcome.verdict.reason ?? "approval required";
  if (waitMs <= 0) {
    return {
      ...outcome,
      verdict: {
        decision: "deny",
        reason: `${asked}: no time left to wait for the approval inbox (raise the hook's --timeout), so it is denied`,
        ...(outcome.verdict.hook ? { hook: outcome.verdict.hook } : {}),
      },
    };
  }
  // With HOOKWISE_INBOX_PUBLIC_KEY, only an approval signed by the inbox's key approves.
  const verify = inboxVerifierFromEnv();
  const mailbox = new ApprovalMailbox(hooks.store, verify ? { verify } : {});
  const tool = outcome.tool;
  const approval = await mailbox.post({
    toolName: event.tool?.name ?? tool.functionName,
    qualifiedName: tool.qualifiedName,
    // What the inbox keeps and shows is masked; the call, approved, runs as it is.
    args: hooks.mask(tool.ranArgs ?? tool.args),
    reason: hooks.mask(asked),
    sessionId: event.sessionId,
    waiter: `${HARNESSES[event.harness].label} (hookwise hook)`,
    waitMs,
  });
  options.log?.(
    `waiting up to ${Math.round(waitMs / 1000)} s for approval ${approval.id} in the approval inbox (hookwise serve)`,
  );
  const decision = await mailbox.wait(approval, options.signal);
  const hook = outcome.verdict.hook ? { hook: outcome.verdict.hook } : {};
  if (decision.approved) {
    const { updatedInput, context } = outcome.verdict;
    return {
      ...outcome,
      verdict: {
        decision: "allow",
        reason: decision.reason ?? `approved in the approval inbox (${approval.id})`,
        ...hook,
        ...(updatedInput !== undefined ? { updatedInput } : {}),
        ...(context ? { context } : {}),
      },
    };
  }
  const reason =
    decision.by === "inbox"
      ? `denied in the approval inbox${decision.reason ? `: ${decision.reason}` : ""}`
      : (decision.reason ?? "denied");
  const { ranArgs: _ran, ...notRun } = tool;
  return { ...outcome, tool: notRun, verdict: { decision: "deny", reason, ...hook } };
}
