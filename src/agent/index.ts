export type {
  AgentOptions,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  RunOptions,
} from "./agent-options.js";
export { type AgentRuntime, consoleLogger } from "./agent-runtime.js";
export type { RetryOptions } from "./backoff.js";
export { RequestValidationError } from "./build-request.js";
export { classifyError, retryAfterMs } from "./classify-error.js";
export { type Agent, type AgentStream, createAgent } from "./create-agent.js";
export type { EndSessionOptions } from "./end-session.js";
export type { SuspendedRunSummary, SuspendedRunsOptions } from "./list-suspended-runs.js";
export type {
  AgentEvent,
  PendingApproval,
  RunOutcome,
  RunResult,
  StepRecord,
  ToolResultRecord,
  Usage,
} from "./run-result.js";
export { SubAgentError } from "./sub-agent-error.js";
export { SUB_AGENT_TOOLSET, type SubAgentToolOptions, subAgentTool } from "./sub-agent-tool.js";
