/**
 * The approval flow as the loop uses it (`ApprovalFlow`): an `ask` goes to the approval
 * channel, a batch with calls waiting for a human suspends the run, and a session waiting
 * on a suspended run takes no new run. `createAgent`, sub-agents and `resume` hand it to
 * the loop, which never imports approvals/.
 */
import type { ApprovalFlow } from "../loop/run-state.js";
import { requestApproval } from "./request-approval.js";
import { suspendStep, toEntries } from "./suspend-run.js";
import { runKey, sessionGuardKey } from "./suspended-run.js";

export const approvalFlow: ApprovalFlow = {
  ask: requestApproval,
  suspend(runtime, state, requested, outcomes, text) {
    return suspendStep(runtime, state, requested, toEntries(runtime, outcomes), text);
  },
  /**
   * A session whose run is suspended takes no new run until that one is resumed (or denied):
   * the pending step would otherwise land after later messages and break the transcript.
   */
  async waiting(runtime, state) {
    const waiting = await runtime.store.get<string>(sessionGuardKey(state.sessionId));
    if (waiting === undefined) return undefined;
    const record = await runtime.store.get<{ status?: string }>(runKey(waiting));
    if (record?.status !== "suspended") return undefined;
    return {
      outcome: "error",
      text: "",
      reason: `session "${state.sessionId}" is waiting on suspended run "${waiting}": resume it (approve or deny its pending approvals) before starting another run`,
    };
  },
};
