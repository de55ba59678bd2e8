/**
 * The AI SDK UI message stream chunks hookwise writes, typed here so the subpath needs no
 * `ai` install. Only chunks and fields every AI SDK 6 and 7 client accepts are used (tool
 * approvals came with AI SDK 6); a field added later (`finishReason`, `title`…) is left out.
 */

import type { HookTraceEntry } from "../hooks/trace.js";
import type { PendingApproval, RunOutcome, Usage } from "../loop/run-result.js";

/** The `data-*` parts of a hookwise UI message: `UIMessage<unknown, HookwiseUIDataTypes>`. */
export type HookwiseUIDataTypes = {
  /** The run behind this message (first part). */
  run: { runId: string; sessionId: string; agentPath: readonly string[]; resumed?: boolean };
  /** One hook firing: event, hook, kind, effect, detail (a reason, a patch, rewritten args…). */
  hook: HookTraceEntry;
  /** An approval a suspended run waits for (id: the approval id). */
  approval: PendingApproval;
  /** How the run ended (last part). */
  outcome: {
    runId: string;
    sessionId: string;
    outcome: RunOutcome;
    reason?: string;
    hook?: string;
    usage: Usage;
  };
};

type DataChunk = {
  [Name in keyof HookwiseUIDataTypes & string]: {
    type: `data-${Name}`;
    id?: string;
    data: HookwiseUIDataTypes[Name];
  };
}[keyof HookwiseUIDataTypes & string];

export type HookwiseUIMessageChunk =
  | { type: "start"; messageId?: string }
  | { type: "start-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; delta: string }
  | { type: "reasoning-end"; id: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  /** A call awaiting a human: its part's state becomes `approval-requested`. */
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  | DataChunk
  | { type: "finish-step" }
  | { type: "error"; errorText: string }
  | { type: "finish" };

/** The headers of a UI message stream response (what `useChat`'s transport checks). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  // Reverse proxies (nginx) must not buffer a stream.
  "x-accel-buffering": "no",
};
