export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
} from "../approvals/types.js";
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
export type { RunOptions } from "../loop/types.js";
export { classifyError, retryAfterMs } from "../models/classify-error.js";
export type { EndSessionOptions } from "../sessions/end-session.js";
export { consoleLogger } from "./agent-runtime.js";
export { createAgent } from "./create-agent.js";
export { SubAgentError } from "./sub-agent-error.js";
export { SUB_AGENT_TOOLSET, type SubAgentToolOptions, subAgentTool } from "./sub-agent-tool.js";
export type { Agent, AgentOptions, AgentRuntime, AgentStream } from "./types.js";
