export type { RetryOptions } from "../loop/backoff.js";
export { RequestValidationError } from "../loop/build-request.js";
export type {
  AgentEvent,
  PendingApproval,
  RunOutcome,
  RunResult,
  StepRecord,
  ToolResultRecord,
  Usage,
} from "../loop/run-result.js";
export { classifyError, retryAfterMs } from "../models/classify-error.js";
export type { EndSessionOptions } from "../sessions/end-session.js";
export type {
  AgentOptions,
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  RunOptions,
} from "./agent-options.js";
export { type AgentRuntime, consoleLogger } from "./agent-runtime.js";
export { type Agent, type AgentStream, createAgent } from "./create-agent.js";
export { SubAgentError } from "./sub-agent-error.js";
export { SUB_AGENT_TOOLSET, type SubAgentToolOptions, subAgentTool } from "./sub-agent-tool.js";
