/**
 * One tool call through its hooks: invalid_tool_call recovery → tool_call transforms
 * (chained rewrites, validated) → decides (policies among them) → approval → execute →
 * tool_error recovery → tool_result transforms → inspects with the final data.
 * Never throws for a hook or tool failure: the model gets an error result naming it.
 */
import type { OnceGuard } from "../approvals/exactly-once.js";
import type { AnyEventPayload, EventPayload } from "../events/payloads.js";
import type { HookContext } from "../hooks/hook-context.js";
import { EMPTY_SELECTION, type HookSelection } from "../hooks/hook-registry.js";
import type { BlockingOutcome } from "../hooks/hook-runner.js";
import type { ModelToolCall } from "../models/language-model.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import { abortable } from "./abortable.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { toolOptions } from "./calling-run.js";
import { requestApproval } from "./request-approval.js";
import { abortError } from "./request-step.js";
import { contextFor, payload, type RunState } from "./run-state.js";
import { errorMessage } from "./tool-output.js";

export type CallOutcome =
  | {
      kind: "result";
      toolCallId: string;
      toolName: string;
      qualifiedName: string;
      args: unknown;
      result: unknown;
      isError: boolean;
      executed: boolean;
      /** The body ran in an earlier process of this (resumed) run; it was not run again. */
      replayed?: boolean;
    }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "retry"; feedback: string; hook: string }
  | PendingCall;

/**
 * A call decided but not executed: it awaits a human (`approval`), or it is allowed and
 * deferred because a sibling awaits one (so a sequential batch keeps its order). A batch
 * with pending calls suspends the run; `resume` settles them (DESIGN §7b).
 */
export interface PendingCall {
  kind: "pending";
  toolCallId: string;
  toolName: string;
  qualifiedName: string;
  /** The effective arguments (after rewrites) that will run. */
  args: unknown;
  /** The `tool_call` payload after rewrites (`original` kept), for the inspections after the run. */
  callPayload: EventPayload<"tool_call">;
  approval?: { id: string; reason?: string };
}

/** How a batch steers one call: `defer` is asked right before the body would start. */
export interface CallControl {
  defer?: () => boolean;
}

export type Resolution =
  | { ok: true; tool: ResolvedTool; args: unknown }
  | { ok: false; outcome: CallOutcome };

function errorResult(call: ModelToolCall, message: string, args: unknown, tool?: ResolvedTool): CallOutcome {
  return {
    kind: "result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    qualifiedName: tool?.qualifiedName ?? call.toolName,
    args,
    result: message,
    isError: true,
    executed: false,
  };
}

/** What a dispatch with no hooks would give: the payload unchanged, nothing else. */
function unhooked<P extends AnyEventPayload>(payload: P): BlockingOutcome<P> {
  return { payload, patches: [], injected: [], edits: [] };
}

/** Finds the tool and checks the arguments; on failure runs `invalid_tool_call` recovery. */
export async function resolveCall(
  runtime: AgentRuntime,
  state: RunState,
  call: ModelToolCall,
): Promise<Resolution> {
  const parsed = call.argsParsed ? { ok: true as const, value: call.args } : { ok: false as const };
  let toolName = call.toolName;
  let args: unknown = parsed.ok ? parsed.value : call.rawInput;
  let problem: { reason: "unknown_tool" | "invalid_args"; message: string } | undefined;
  const available = runtime.tools.map((tool) => tool.functionName);
  for (let round = 0; round < 2; round++) {
    const tool = runtime.toolsByName.get(toolName);
    if (!tool) {
      problem = {
        reason: "unknown_tool",
        message: `unknown tool "${toolName}"; available tools: ${available.join(", ") || "(none)"}`,
      };
    } else if (round === 0 && !parsed.ok) {
      problem = {
        reason: "invalid_args",
        message: `arguments for "${toolName}" are not valid JSON: ${call.rawInput.slice(0, 200)}`,
      };
    } else {
      const checked = tool.input.validate(args);
      if (checked.ok) return { ok: true, tool, args: checked.value };
      problem = {
        reason: "invalid_args",
        message: `invalid arguments for "${toolName}": ${checked.message}`,
      };
    }
    if (round === 1) break;
    const event = payload(state, "invalid_tool_call", {
      toolName,
      toolCallId: call.toolCallId,
      args,
      reason: problem.reason,
      message: problem.message,
      availableTools: available,
    });
    const context = contextFor(state);
    const outcome = await state.runner.blocking(event, context);
    state.runner.inspect(event, context);
    if (outcome.failure) return { ok: false, outcome: errorResult(call, `${outcome.failure.message}`, args) };
    const terminal = outcome.terminal;
    if (!terminal) break;
    const flow = terminal.flow;
    if (flow.type === "terminate")
      return { ok: false, outcome: { kind: "terminate", reason: flow.reason, hook: terminal.hook } };
    if (flow.type === "retry") {
      return {
        ok: false,
        outcome: { kind: "retry", feedback: flow.feedback ?? problem.message, hook: terminal.hook },
      };
    }
    if (flow.type === "skip") {
      const skipped = { ...errorResult(call, "", args), result: flow.result, isError: false };
      return { ok: false, outcome: skipped };
    }
    if (flow.type === "repair") {
      toolName = flow.call.toolName ?? toolName;
      args = flow.call.args;
      continue;
    }
    break;
  }
  return { ok: false, outcome: errorResult(call, problem!.message, args) };
}

export async function runToolCall(
  runtime: AgentRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl = {},
  /** The call already found and checked (the batch resolves every call before running any). */
  resolution?: Resolution,
): Promise<CallOutcome> {
  // An aborted run starts nothing new: no hooks, no tool body (siblings may still be queued).
  if (state.signal.aborted) throw abortError(state.signal);
  const resolved = resolution ?? (await resolveCall(runtime, state, call));
  if (!resolved.ok) return resolved.outcome;
  const { tool } = resolved;
  const base = {
    toolCallId: call.toolCallId,
    toolName: tool.functionName,
    qualifiedName: tool.qualifiedName,
  };
  const context = contextFor(state);

  const callEvent = payload(state, "tool_call", {
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args: resolved.args,
  });
  // No tool_call hook at all: no selection, no dispatch, no extra await.
  const hooked = state.runner.wants("tool_call");
  const selection = hooked ? state.runner.select(callEvent) : EMPTY_SELECTION;
  const decided = hooked
    ? await state.runner.blocking(callEvent, context, selection, { validateArgs: tool.input.validate })
    : unhooked(callEvent);
  const args = decided.payload.args;
  if (decided.failure) {
    return errorResult(call, `tool not run: ${decided.failure.message} (failed closed)`, args, tool);
  }
  const terminal = decided.terminal;
  if (terminal) {
    const flow = terminal.flow;
    if (flow.type === "terminate") return { kind: "terminate", reason: flow.reason, hook: terminal.hook };
    if (flow.type === "skip") {
      state.runner.inspect(decided.payload, context, selection);
      return { kind: "result", ...base, args, result: flow.result, isError: false, executed: false };
    }
    if (flow.type === "deny") {
      state.runner.inspect(decided.payload, context, selection);
      return errorResult(
        call,
        `tool "${tool.qualifiedName}" was denied by hook "${terminal.hook}": ${flow.reason}`,
        args,
        tool,
      );
    }
    if (flow.type === "ask") {
      const answer = await requestApproval(runtime, state, { ...base, args, reason: flow.request.reason });
      if (answer.pending) {
        return { kind: "pending", ...base, args, callPayload: decided.payload, approval: answer.pending };
      }
      if (!answer.approved) {
        return errorResult(
          call,
          `tool "${tool.qualifiedName}" was not approved: ${answer.reason}`,
          args,
          tool,
        );
      }
    }
  }

  if (control.defer?.()) return { kind: "pending", ...base, args, callPayload: decided.payload };
  return executeCall(state, { tool, base, args, callPayload: decided.payload, context, selection });
}

export interface ExecuteInput {
  tool: ResolvedTool;
  base: { toolCallId: string; toolName: string; qualifiedName: string };
  args: unknown;
  callPayload: EventPayload<"tool_call">;
  context: HookContext;
  selection: HookSelection;
  /** Runs the body at most once across processes (approved calls of a resumed run). */
  once?: OnceGuard;
}

/**
 * The operation and what follows it: execute → tool_error recovery → tool_result
 * transforms → inspects. Shared by `runToolCall` and a resumed run's approved calls.
 */
export async function executeCall(state: RunState, input: ExecuteInput): Promise<CallOutcome> {
  const { tool, base, args, context, selection, once } = input;
  const decided = { payload: input.callPayload };
  const call = { toolCallId: base.toolCallId };
  let result: unknown;
  let isError = false;
  let errorText: string | undefined;
  // The hooks above may have outlived an abort; the body must not start after it.
  if (state.signal.aborted) throw abortError(state.signal);
  try {
    const body = () =>
      tool.execute(
        args,
        toolOptions(
          {
            toolCallId: call.toolCallId,
            signal: state.signal,
            context: {
              sessionId: state.sessionId,
              runId: state.runId,
              step: state.step,
              agentName: state.agentName,
            },
          },
          state,
        ),
      );
    result = await abortable(once ? once.run(body) : body(), state.signal);
    // Inspections run after the operation (DESIGN §3), with the effective arguments.
    state.runner.inspect(decided.payload, context, selection);
  } catch (error) {
    state.runner.inspect(decided.payload, context, selection);
    if (state.signal.aborted) throw error;
    const errorEvent = payload(state, "tool_error", { ...base, args, error });
    const recovered = await state.runner.blocking(errorEvent, context);
    state.runner.inspect(errorEvent, context);
    if (recovered.terminal?.flow.type === "terminate") {
      return { kind: "terminate", reason: recovered.terminal.flow.reason, hook: recovered.terminal.hook };
    }
    if (recovered.terminal?.flow.type === "rewriteResult") {
      result = recovered.terminal.flow.result;
    } else {
      isError = true;
      errorText = errorMessage(error);
      result = recovered.failure
        ? `tool "${tool.qualifiedName}" failed: ${errorText}; recovery ${recovered.failure.message}`
        : `tool "${tool.qualifiedName}" failed: ${errorText}`;
    }
  }

  // Payload fields are listed, not spread: on Node 20 `{ ...base, args }` costs about a
  // microsecond per object (spread-then-property literals take a slow path); see bench/loop.
  const resultFields: Omit<EventPayload<"tool_result">, "type" | "agentPath"> = {
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args,
    result,
    isError,
  };
  if (errorText) resultFields.error = errorText;
  const resultEvent = payload(state, "tool_result", resultFields);
  const resultHooked = state.runner.wants("tool_result");
  const resultSelection = resultHooked ? state.runner.select(resultEvent) : EMPTY_SELECTION;
  const rewritten = resultHooked
    ? await state.runner.blocking(resultEvent, context, resultSelection, {
        validateResult: tool.output?.validate,
      })
    : unhooked(resultEvent);
  if (rewritten.failure) {
    // Fail closed: the raw output never reaches the model, the trace or the logs.
    return {
      kind: "result",
      ...base,
      args,
      result: `tool result withheld: ${rewritten.failure.message} (failed closed)`,
      isError: true,
      executed: true,
    };
  }
  if (rewritten.terminal?.flow.type === "terminate") {
    return { kind: "terminate", reason: rewritten.terminal.flow.reason, hook: rewritten.terminal.hook };
  }
  state.runner.inspect(rewritten.payload, context, resultSelection);
  const outcome: Extract<CallOutcome, { kind: "result" }> = {
    kind: "result",
    ...base,
    args,
    result: rewritten.payload.result,
    isError,
    executed: true,
  };
  if (once?.replayed) outcome.replayed = true;
  return outcome;
}
