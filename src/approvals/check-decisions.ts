/**
 * The checks a resume makes before anything runs: each decision names a
 * pending approval of this run (by id, or by a token whose signature, run and binding
 * match), an approval is not approved after it expired, the saved call still hashes to
 * what was approved, a deferred call still hashes to what was decided before the
 * suspension, every decision's `approved` is a boolean, and no decision contradicts an
 * earlier one (or a tool that already started). The first failure throws an ApprovalError;
 * nothing has changed by then.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import { ApprovalError } from "../errors/approval-error.js";
import type { Decision } from "../loop/batch/settle-batch.js";
import type { PendingEntry } from "../loop/batch/types.js";
import type { LoopRuntime } from "../loop/types.js";
import { approvalSettings } from "./approval-settings.js";
import { type ApprovalSigner, bindingHash } from "./approval-signer.js";
import { hasStarted, pendingApprovalsOf, type SuspendedRunRecord } from "./suspended-run.js";
import type { ApprovalDecision } from "./types.js";

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && nodeCrypto().timingSafeEqual(left, right);
}

function expired(runId: string, entry: PendingEntry, at: number): ApprovalError {
  return new ApprovalError({
    reason: "expired",
    runId,
    approvalId: entry.approval!.id,
    message: `approval "${entry.approval!.id}" for ${entry.qualifiedName} expired at ${new Date(at).toISOString()} (approval_ttl); it can be denied, not approved; nothing was run`,
  });
}

/** The pending call a decision is about; a token is verified on the way. */
function targetOf(
  given: ApprovalDecision,
  runId: string,
  byId: ReadonlyMap<string, PendingEntry>,
  signer: ApprovalSigner | undefined,
  now: number,
): PendingEntry {
  const listed = () => [...byId.keys()].join(", ") || "none";
  if (!("token" in given)) {
    const entry = byId.get(given.id);
    if (entry) return entry;
    throw new ApprovalError({
      reason: "unknown_approval",
      runId,
      approvalId: given.id,
      message: `run "${runId}" has no pending approval "${given.id}" (pending: ${listed()}); nothing was run`,
    });
  }
  if (!signer) {
    throw new ApprovalError({
      reason: "no_key",
      runId,
      message:
        "an approval token was given but no approval key is set (HOOKWISE_APPROVAL_KEY); it cannot be verified; nothing was run",
    });
  }
  const claims = signer.verify(given.token);
  const refuse = (message: string) =>
    new ApprovalError({
      reason: "binding",
      runId,
      approvalId: claims.id,
      message: `approval token refused: ${message}`,
    });
  if (claims.run !== runId)
    throw refuse(`it was issued for run "${claims.run}", not "${runId}"; nothing was run`);
  const entry = byId.get(claims.id);
  if (!entry) {
    throw new ApprovalError({
      reason: "unknown_approval",
      runId,
      approvalId: claims.id,
      message: `run "${runId}" has no pending approval "${claims.id}" (pending: ${listed()}); the token is spent or stale; nothing was run`,
    });
  }
  if (!sameText(claims.binding, entry.approval!.binding)) {
    throw refuse(
      `it approves ${claims.tool} with other arguments than the pending call ${entry.qualifiedName} ${JSON.stringify(entry.args)}; nothing was run`,
    );
  }
  if (given.approved && claims.exp <= now) throw expired(runId, entry, claims.exp);
  return entry;
}

/** The saved call still hashes to what was approved: a changed tool name or argument is refused. */
export function checkBinding(runId: string, entry: PendingEntry, signer: ApprovalSigner | undefined): void {
  const approval = entry.approval!;
  const keyed = approval.binding.startsWith("hmac-sha256:");
  const refuse = (reason: "no_key" | "binding", message: string) =>
    new ApprovalError({ reason, runId, approvalId: approval.id, message: `${message}; nothing was run` });
  if (keyed && !signer) {
    throw refuse(
      "no_key",
      `approval "${approval.id}" is bound with an approval key: set HOOKWISE_APPROVAL_KEY to the key this run suspended with`,
    );
  }
  if (!keyed && signer) {
    throw refuse(
      "binding",
      `approval "${approval.id}" has an unkeyed binding while an approval key is set; refused (deny it, or resume without the key)`,
    );
  }
  if (!sameText(bindingHash(entry.qualifiedName, entry.args, signer, approval.expiresAt), approval.binding)) {
    throw refuse(
      "binding",
      `approval "${approval.id}" does not match the saved call ${entry.qualifiedName} ${JSON.stringify(entry.args)} (its tool name, arguments or expiry changed since it was asked); refused`,
    );
  }
}

/**
 * A deferred call still hashes to what it was when the run suspended (its tool name and
 * arguments were decided then, and are not decided again): one a store edit changed is
 * refused, as is one without a binding while an approval key is set.
 */
function checkDeferred(runId: string, entry: PendingEntry, signer: ApprovalSigner | undefined): void {
  const refuse = (reason: "no_key" | "binding", message: string) =>
    new ApprovalError({ reason, runId, message: `${message}; nothing was run` });
  const { binding } = entry;
  const call = `deferred call ${entry.toolCallId} (${entry.qualifiedName})`;
  if (binding === undefined) {
    if (signer) throw refuse("binding", `${call} has no binding while an approval key is set; refused`);
    return;
  }
  const keyed = binding.startsWith("hmac-sha256:");
  if (keyed && !signer) {
    throw refuse(
      "no_key",
      `${call} is bound with an approval key: set HOOKWISE_APPROVAL_KEY to the key this run suspended with`,
    );
  }
  if (!keyed && signer)
    throw refuse("binding", `${call} has an unkeyed binding while an approval key is set; refused`);
  if (!sameText(bindingHash(entry.qualifiedName, entry.args, signer), binding)) {
    throw refuse(
      "binding",
      `${call} does not match its binding (its tool name or arguments changed since the run suspended); refused`,
    );
  }
}

/** The decisions by approval id, every one checked (and every recorded approval re-checked). */
export async function checkDecisions(
  runtime: LoopRuntime,
  record: SuspendedRunRecord,
  decisions: readonly ApprovalDecision[],
  now: number,
): Promise<Map<string, Decision>> {
  const { signer } = approvalSettings(runtime);
  const runId = record.runId;
  const pending = pendingApprovalsOf(record);
  for (const entry of pending) if (entry.approval?.decision?.approved) checkBinding(runId, entry, signer);
  for (const entry of record.pending.entries)
    if (entry.kind === "pending" && entry.approval === undefined) checkDeferred(runId, entry, signer);
  const byId = new Map(pending.map((entry) => [entry.approval!.id, entry]));
  const checked = new Map<string, Decision>();
  for (const given of decisions) {
    // A JSON or form client may pass "false" through: only `true` approves, only `false` denies.
    if (typeof given.approved !== "boolean") {
      const named = "token" in given ? "a token's decision" : `the decision for "${String(given.id)}"`;
      throw new ApprovalError({
        reason: "invalid",
        runId,
        message: `${named} has approved: ${JSON.stringify(given.approved) ?? "undefined"}; it must be true or false; nothing was run`,
      });
    }
    const entry = targetOf(given, runId, byId, signer, now);
    const approval = entry.approval!;
    const decision: Decision = { approved: given.approved };
    if (given.reason !== undefined) decision.reason = given.reason;
    const previous = checked.get(approval.id) ?? approval.decision;
    if (previous && previous.approved !== decision.approved) {
      throw new ApprovalError({
        reason: "conflict",
        runId,
        approvalId: approval.id,
        message: `approval "${approval.id}" is both ${previous.approved ? "approved" : "denied"} and ${decision.approved ? "approved" : "denied"}; nothing was run`,
      });
    }
    const started = await hasStarted(runtime.store, runId, entry);
    if (started && !decision.approved) {
      throw new ApprovalError({
        reason: "conflict",
        runId,
        approvalId: approval.id,
        message: `approval "${approval.id}" was already approved and ${entry.qualifiedName} started in an earlier resume that did not finish; it cannot be denied now — approve it to settle the run (the tool will not run again); nothing was run`,
      });
    }
    if (decision.approved && !started) {
      if (approval.expiresAt <= now) throw expired(runId, entry, approval.expiresAt);
      checkBinding(runId, entry, signer);
    }
    checked.set(approval.id, decision);
  }
  return checked;
}
