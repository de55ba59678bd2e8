export type { RetryOptions } from "./backoff.js";
export { RequestValidationError } from "./build-request.js";
export type { RunInput } from "./run-input.js";
export type {
  AgentEvent,
  PendingApproval,
  RunOutcome,
  RunResult,
  StepRecord,
  ToolResultRecord,
  Usage,
} from "./run-result.js";
export { OutputValidationError } from "./structured-output.js";
export type { RunOptions, StreamOptions } from "./types.js";
