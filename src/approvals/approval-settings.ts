/**
 * An agent's approval channel, resolved and checked once at construction: the handler,
 * the TTL, whether it may suspend, and the signing key. Kept beside
 * the runtime (not on it) so the key never sits on an object that is logged or returned.
 *
 * "ask_user without a reachable approval channel is a load-time error": suspension IS a
 * channel (the human answers through `resume`), so an askUser policy without a handler is
 * valid by default; it is an error only when the agent opts out of suspension and has no
 * handler.
 */

import type { LoopRuntime } from "../loop/types.js";
import type { Policy } from "../policy/policy.js";
import { type ApprovalSigner, resolveApprovalSigner } from "./approval-signer.js";
import type { ApprovalOptions } from "./types.js";

export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;

export interface ApprovalSettings {
  readonly handler: ApprovalOptions["handler"];
  readonly ttlMs: number;
  readonly suspend: boolean;
  readonly signer: ApprovalSigner | undefined;
}

/** The agent options the settings are resolved from (`AgentOptions` has them). */
export interface ApprovalSettingsSource {
  approvals?: ApprovalOptions;
  policies?: readonly Policy[];
}

const settings = new WeakMap<LoopRuntime, ApprovalSettings>();

/** Checks `options.approvals` and the policies' handlers; throws a TypeError naming the problem. */
export function resolveApprovalSettings(options: ApprovalSettingsSource): ApprovalSettings {
  const approvals = options.approvals ?? {};
  if (typeof approvals !== "object" || approvals === null) {
    throw new TypeError("createAgent: approvals must be an object ({ handler?, ttlMs?, suspend?, key? })");
  }
  if (approvals.handler !== undefined && typeof approvals.handler !== "function") {
    throw new TypeError(
      "createAgent: approvals.handler must be a function (request) => boolean | { approved, reason }",
    );
  }
  const ttlMs = approvals.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
  if (typeof ttlMs !== "number" || !(ttlMs > 0) || !Number.isFinite(ttlMs)) {
    throw new TypeError(
      `createAgent: approvals.ttlMs must be a positive number of milliseconds (got ${String(ttlMs)})`,
    );
  }
  const suspend = approvals.suspend ?? true;
  for (const item of options.policies ?? []) {
    if (item.decision !== "ask_user") continue;
    if (item.handler !== undefined && typeof item.handler !== "function") {
      throw new TypeError(`policy ask_user "${item.tool}": handler must be a function (call) => boolean`);
    }
    if (item.handler === undefined && approvals.handler === undefined && !suspend) {
      throw new TypeError(
        `policy ask_user "${item.tool}" has no reachable approval channel: give it a handler, give the agent approvals.handler, or allow suspension (approvals.suspend)`,
      );
    }
  }
  return { handler: approvals.handler, ttlMs, suspend, signer: resolveApprovalSigner(approvals.key) };
}

/** Registers the settings checked at construction for this runtime. */
export function bindApprovalSettings(runtime: LoopRuntime, resolved: ApprovalSettings): void {
  settings.set(runtime, resolved);
}

/** The runtime's settings; resolved on first use for runtimes built without `createAgent`. */
export function approvalSettings(runtime: LoopRuntime): ApprovalSettings {
  let resolved = settings.get(runtime);
  if (!resolved) {
    // The loop's view of the options omits them; an agent's runtime carries its AgentOptions.
    resolved = resolveApprovalSettings(runtime.options as ApprovalSettingsSource);
    settings.set(runtime, resolved);
  }
  return resolved;
}
