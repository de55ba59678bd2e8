/** What a run returns (DESIGN §11) and what `stream()` surfaces while it goes. */
import type { ModelMessage, ModelRequest, ToolCallSummary } from "../events/payloads.js";
import type { HookTraceEntry } from "../hooks/trace.js";

export type RunOutcome = "completed" | "terminated" | "suspended" | "max_steps" | "error";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ToolResultRecord {
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  /** The arguments the tool ran with (after rewrites). */
  args: unknown;
  result: unknown;
  isError: boolean;
  /** Whether the tool's body ran (false for denied, skipped and invalid calls). */
  executed: boolean;
}

export interface StepRecord {
  index: number;
  text: string;
  reasoning: string;
  toolCalls: ToolCallSummary[];
  toolResults: ToolResultRecord[];
  finishReason: string;
  usage: Usage;
  /** Attempts this step's provider request took (1 without retries). */
  attempts: number;
}

export interface PendingApproval {
  id: string;
  toolName: string;
  args: unknown;
  reason?: string;
}

export interface RunResult {
  outcome: RunOutcome;
  text: string;
  /** Why the run ended when it did not complete. */
  reason?: string;
  /** The hook that ended it, if one did. */
  hook?: string;
  error?: { name: string; message: string };
  /** The session transcript after the run (AI SDK `ModelMessage` shape). */
  messages: ModelMessage[];
  steps: StepRecord[];
  /** What each attempt really sent, after patches. */
  requests: ModelRequest[];
  /** One entry per hook that fired. */
  events: HookTraceEntry[];
  usage: Usage;
  runId: string;
  sessionId: string;
  approvals?: PendingApproval[];
}

export type AgentEvent =
  | { type: "run-start"; runId: string; sessionId: string; input: string; agentPath: readonly string[] }
  | { type: "step-start"; step: number }
  | { type: "text-delta"; step: number; delta: string }
  | { type: "reasoning-delta"; step: number; delta: string }
  | { type: "tool-call"; step: number; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool-execution-start"; step: number; toolCallId: string; toolName: string; args: unknown }
  | {
      type: "tool-result";
      step: number;
      toolCallId: string;
      toolName: string;
      result: unknown;
      isError: boolean;
    }
  | ({ type: "hook" } & HookTraceEntry)
  | { type: "step-finish"; step: number; text: string; finishReason: string; usage: Usage }
  | { type: "run-finish"; result: RunResult };
