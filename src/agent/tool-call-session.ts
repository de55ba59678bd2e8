/**
 * Tool calls made from outside the loop (an MCP client calling the agent's tools through
 * `hookwise mcp`), each through the agent's hooks exactly as a call the model made: the
 * loop's own `runToolCall` runs it — input checked against the tool's schema,
 * `invalid_tool_call`, `tool_call` transforms and decides (policies among them), approval,
 * before-observers, the body, `tool_error`, `tool_result` transforms, inspections.
 *
 * One session is one hookwise session: hooks see its id, its session scratchpad lives as
 * long as it does, and `max_fires`, `cooldown` and rate limits count in the store under it
 * (across processes sharing the store). Each call is one run of one step: its trace becomes
 * a run record (`hookwise trace --session`) and the call and its result (as the hooks left
 * it) are added to the session's transcript (`hookwise history`).
 *
 * Calls of a session run concurrently; nothing the loop saves between calls is read here
 * but the store's own atomic counters, so concurrent calls keep them exact.
 */

import { requestApproval } from "../approvals/request-approval.js";
import type { ModelMessage } from "../events/payloads.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { runSignal } from "../loop/abortable.js";
import { runToolCall } from "../loop/batch/run-tool-call.js";
import type { ApprovalCall, ApprovalOutcome, CallOutcome } from "../loop/batch/types.js";
import { flatUuid } from "../loop/flat-uuid.js";
import { LoopState } from "../loop/loop-state.js";
import { createRunMeter } from "../loop/run-meter.js";
import type { ApprovalFlow } from "../loop/run-state.js";
import { PromptBuilder } from "../loop/to-prompt.js";
import type { ModelToolCall } from "../models/language-model.js";
import { endSession } from "../sessions/end-session.js";
import { type RunTelemetry, startRunTelemetry } from "../telemetry/run-telemetry.js";
import { CallHistory } from "./call-history.js";
import type { RunRecord } from "./run-record.js";
import { saveRunRecord } from "./run-recorder.js";
import { callRecord } from "./tool-call-record.js";
import { TranscriptWriter } from "./transcript-writer.js";
import type { AgentRuntime } from "./types.js";

/** What an approval asked outside the config (the caller's channel) is about. */
export interface ToolCallApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  args: unknown;
  reason?: string;
  /** The call's signal: aborted when the call is cancelled. */
  signal: AbortSignal;
}

export interface ToolCallSessionOptions {
  /** The session's id (default: a new one). */
  sessionId?: string;
  /**
   * Answers an approval nothing in the config answered (no `approval_request` hook, no
   * policy handler). Absent: such a call is denied with `unapprovedReason`.
   */
  approve?: (approval: ToolCallApproval) => Promise<{ approved: boolean; reason?: string }>;
  /** The denial's reason when no channel could answer (default says so). */
  unapprovedReason?: (approval: Omit<ToolCallApproval, "signal">) => string;
  /** Keep a run record per call and the session's transcript in the store (default true). */
  record?: boolean;
  /** Why the session ended, as `session_end` hooks see it when it is closed (default "closed"). */
  endReason?: string;
  /** Marks each call's record as a call an MCP client made through the gateway (`RunRecord.gateway`). */
  gateway?: RunRecord["gateway"];
}

export interface ToolCallRequest {
  /** The tool's function name (`toolset_tool`); a qualified name (`toolset.tool`) is accepted too. */
  name: string;
  args: unknown;
  /** Aborts the call: its hooks and its tool body (which gets the signal). */
  signal?: AbortSignal;
  toolCallId?: string;
}

/** What a call ended with: the result the hooks left (or the reason it did not run). */
export interface ToolCallResult {
  toolCallId: string;
  /** The result (after `tool_result` hooks), or the denial / error text. */
  result: unknown;
  isError: boolean;
  /** Whether the tool's body ran. */
  executed: boolean;
  /** What the model would be sent of the result (the tool's `toModelOutput`), when it has one. */
  modelOutput?: Extract<CallOutcome, { kind: "result" }>["modelOutput"];
  runId: string;
}

export interface ToolCallSession {
  readonly sessionId: string;
  call(request: ToolCallRequest): Promise<ToolCallResult>;
  /**
   * Ends the session: waits for what it still writes (records, transcript), then fires
   * `session_end`. Calls made after it fail.
   */
  close(): Promise<void>;
}

/**
 * `runtime` may be a function answering the agent's runtime at each call: a caller that
 * rebuilds its agent (its tools changed) hands the new one to the sessions already open.
 */
export function openToolCallSession(
  agentRuntime: AgentRuntime | (() => AgentRuntime),
  options: ToolCallSessionOptions = {},
): ToolCallSession {
  const runtimeOf = typeof agentRuntime === "function" ? agentRuntime : () => agentRuntime;
  const first = runtimeOf();
  const sessionId = options.sessionId ?? flatUuid();
  const record = options.record !== false;
  const transcript = record ? new TranscriptWriter(first.store, sessionId, first.log) : undefined;
  const writes = new Set<Promise<void>>();
  let lineage = lineageOf(first);
  const approvals = gatewayApprovals(options);
  let turn = 0;
  let closed = false;
  // What the `tool_calls` and `message_count` conditions count: the session's calls.
  const history = new CallHistory();

  const keep = (write: Promise<void>) => {
    writes.add(write);
    void write.finally(() => writes.delete(write));
  };

  return {
    sessionId,
    async call(request) {
      if (closed) throw new Error(`tool-call session "${sessionId}" is closed`);
      const runtime = runtimeOf();
      if (lineage.runtime !== runtime) lineage = lineageOf(runtime);
      const startedAt = Date.now();
      const runId = flatUuid();
      const toolCallId = request.toolCallId ?? `call_${flatUuid()}`;
      const toolName = runtime.canonicalTool(request.name);
      const composed = runSignal(request.signal);
      const telemetry =
        runtime.telemetry &&
        startRunTelemetry(runtime.telemetry, {
          agentName: runtime.name,
          runId,
          sessionId,
          agentPath: lineage.agentPath,
          resumed: false,
        });
      const state = callState(runtime, lineage, {
        runId,
        sessionId,
        signal: composed.signal,
        abortable: composed.abortable,
        telemetry,
        approvals,
        turn: turn++,
        messages: history.start({ toolCallId, toolName }),
      });
      const call: ModelToolCall = {
        toolCallId,
        toolName,
        args: request.args,
        argsParsed: true,
        rawInput: "",
      };
      let outcome: CallOutcome;
      try {
        outcome = await runToolCall(runtime, state, call);
        await state.runner.settle();
      } catch (error) {
        // Only an abort ends a call with a throw: hooks' and tools' failures are results.
        outcome = {
          kind: "result",
          toolCallId,
          toolName,
          qualifiedName: toolName,
          args: request.args,
          result: `tool call aborted: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
          executed: false,
        };
      } finally {
        state.runner.close();
        composed.release();
      }
      const result = resultOf(outcome, toolCallId, runId);
      history.finish({ toolCallId, toolName }, result.isError);
      telemetry?.runEnded({
        outcome: outcome.kind === "terminate" ? "terminated" : "completed",
        text: "",
        input: "",
        usage: state.usage,
        steps: 1,
      });
      if (record) {
        const made = callRecord({
          runId,
          sessionId,
          agent: runtime.name,
          startedAt,
          call,
          outcome,
          result,
          trace: state.runner.events(),
          ...(options.gateway !== undefined ? { gateway: options.gateway } : {}),
        });
        keep(
          saveRunRecord(runtime.store, made).catch((error: unknown) =>
            runtime.log.warn(`tool call ${toolCallId} was not recorded: ${(error as Error).message}`),
          ),
        );
        transcript!.add(call, result);
      }
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...writes]);
      await transcript?.flush();
      // session_end hooks see it; the session's scratchpad leaves this process's memory.
      await endSession(runtimeOf(), sessionId, { reason: options.endReason ?? "closed" }).catch(
        (error: unknown) =>
          runtimeOf().log.warn(`session ${sessionId}: session_end failed: ${(error as Error).message}`),
      );
    },
  };
}

/** The registries a session's calls dispatch to, and their agent path (made once per runtime). */
function lineageOf(runtime: AgentRuntime) {
  return {
    runtime,
    registries: Object.freeze([Object.freeze({ registry: runtime.registry, depth: 0 })]),
    agentPath: Object.freeze([runtime.name]),
  };
}

/**
 * The state of a call's run, as `drive` makes a run's: one step (0), the session's earlier
 * calls as its transcript (what the hooks' statistics count), the hooks' trace kept for the
 * record.
 */
function callState(
  runtime: AgentRuntime,
  lineage: ReturnType<typeof lineageOf>,
  run: {
    runId: string;
    sessionId: string;
    signal: AbortSignal;
    abortable: boolean;
    telemetry: RunTelemetry | undefined;
    approvals: ApprovalFlow;
    turn: number;
    /** The session's calls before this one (the hooks' `tools` and `messages`). */
    messages: ModelMessage[];
  },
): LoopState {
  const { registries, agentPath } = lineage;
  const state = new LoopState(runtime, {
    runId: run.runId,
    sessionId: run.sessionId,
    agentPath,
    registries,
    isStreaming: false,
    signal: run.signal,
    runner: new HookRunner({
      registries,
      keep: { capacity: 8 },
      log: runtime.log,
      observer: run.telemetry,
      ...(run.abortable ? { signal: run.signal } : {}),
    }),
    telemetry: run.telemetry,
    approvals: run.approvals,
    messages: run.messages,
    input: "",
    inputParts: undefined,
    turn: run.turn,
    emit: () => {},
    prompts: new PromptBuilder(),
  });
  (state as { meter: LoopState["meter"] }).meter = createRunMeter(runtime, state);
  state.step = 0;
  return state;
}

/** A call's outcome as the caller sees it: the result, or why the call did not run. */
function resultOf(outcome: CallOutcome, toolCallId: string, runId: string): ToolCallResult {
  switch (outcome.kind) {
    case "result": {
      const result: ToolCallResult = {
        toolCallId,
        result: outcome.result,
        isError: outcome.isError,
        executed: outcome.executed,
        runId,
      };
      if (outcome.modelOutput !== undefined) result.modelOutput = outcome.modelOutput;
      return result;
    }
    case "terminate":
      return {
        toolCallId,
        result: `tool call ended by hook "${outcome.hook}": ${outcome.reason}`,
        isError: true,
        executed: false,
        runId,
      };
    case "retry":
      return { toolCallId, result: outcome.feedback, isError: true, executed: false, runId };
    case "pending":
      // The session's approval flow never leaves a call pending; a deferral is no answer either.
      return {
        toolCallId,
        result: `tool "${outcome.qualifiedName}" was not run: it awaits an approval`,
        isError: true,
        executed: false,
        runId,
      };
  }
}

/**
 * Approvals of a tool-call session: `approval_request` hooks and a policy's handler answer
 * first (as in any run); what they leave waiting goes to the session's `approve` channel,
 * or is denied with a reason saying how to approve. A call is never left pending: there is
 * no run to suspend and resume.
 */
function gatewayApprovals(options: ToolCallSessionOptions): ApprovalFlow {
  return {
    async ask(runtime, state, call: ApprovalCall): Promise<ApprovalOutcome> {
      const asked = await requestApproval(runtime, state, call);
      if (!asked.pending) return asked;
      const approval = {
        approvalId: asked.pending.id,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        qualifiedName: call.qualifiedName,
        args: call.args,
        ...(call.reason !== undefined ? { reason: call.reason } : {}),
      };
      if (!options.approve) {
        return {
          approved: false,
          reason:
            options.unapprovedReason?.(approval) ??
            `approval required (${call.reason ?? "ask"}) and nothing can answer it here`,
        };
      }
      try {
        const answer = await options.approve({ ...approval, signal: state.signal });
        return {
          approved: answer.approved === true,
          reason: answer.reason ?? (answer.approved === true ? "approved" : "declined by the approver"),
        };
      } catch (error) {
        return {
          approved: false,
          reason: `the approval could not be asked: ${error instanceof Error ? error.message : String(error)} (failed closed)`,
        };
      }
    },
    suspend() {
      throw new Error("a tool-call session never suspends: its approvals are answered or denied");
    },
    async waiting() {
      return undefined;
    },
  };
}
