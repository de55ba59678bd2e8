/** What a run returns and what `stream()` surfaces while it goes. */
import type { ModelMessage, ModelRequest, ToolCallSummary } from "../events/payloads.js";
import type { HookLiveEvent, HookTraceEntry } from "../hooks/trace.js";

export type RunOutcome = "completed" | "terminated" | "suspended" | "max_steps" | "error";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * Of `inputTokens`, those read from the provider's prompt cache (billed at a fraction of
   * the input price). Present once a provider reported it.
   */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache. Present once reported. */
  cacheWriteTokens?: number;
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
  /** It ran in an earlier process of this resumed run and was not run again. */
  replayed?: boolean;
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

/** An approval a suspended run waits for; decide it with `agent.resume`. */
export interface PendingApproval {
  id: string;
  /** The function name the model called. */
  toolName: string;
  /** `toolset.tool`: what policies and the approval's binding name. */
  qualifiedName: string;
  toolCallId: string;
  /** The effective arguments (after rewrites): exactly what will run if approved. */
  args: unknown;
  reason?: string;
  /** After this instant (ISO 8601) the call can still be denied, never approved. */
  expiresAt: string;
  /** A signed approval token a client can carry back (only when an approval key is set). */
  token?: string;
}

export interface RunResult<OUTPUT = unknown> {
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
  /** When `outcome` is "suspended": the approvals the run waits for. */
  approvals?: PendingApproval[];
  /**
   * The final answer as a value, validated against the agent's `output` schema (only when
   * it has one and the run completed). Typed from the schema: `createAgent({ output: z.object(…) })`
   * gives `result.output` that object's type.
   */
  output?: OUTPUT;
}

export type AgentEvent =
  | {
      type: "run-start";
      runId: string;
      sessionId: string;
      input: string;
      agentPath: readonly string[];
      /** A suspended run continuing (`agent.resumeStream`): same runId, its pending step first. */
      resumed?: boolean;
    }
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
  | HookLiveEvent
  | { type: "step-finish"; step: number; text: string; finishReason: string; usage: Usage }
  | { type: "run-finish"; result: RunResult };
