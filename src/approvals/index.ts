export {
  APPROVAL_KEY_ENV,
  type ApprovalTokenClaims,
  bindingHash,
  isApprovalToken,
} from "./approval-signer.js";
export { canonicalJson } from "./canonical-json.js";
export { ToolOutcomeUnknownError } from "./exactly-once.js";
export type { SuspendedRunSummary, SuspendedRunsOptions } from "./list-suspended-runs.js";
export type { ApprovalAnswer, ApprovalDecision, ApprovalOptions, ApprovalRequest } from "./types.js";
