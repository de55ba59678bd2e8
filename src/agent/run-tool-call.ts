/**
 * One tool call through its hooks: invalid_tool_call recovery → tool_call transforms
 * (chained rewrites, validated) → decides (policies among them) → approval → execute →
 * tool_error recovery → tool_result transforms → inspects with the final data.
 * Never throws for a hook or tool failure: the model gets an error result naming it.
 */
import type { OnceGuard } from "../approvals/exactly-once.js";
import type { EventPayload } from "../events/payloads.js";
import type { HookContext } from "../hooks/hook-context.js";
import { EMPTY_SELECTION, type HookSelection } from "../hooks/hook-registry.js";
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
  /**
   * Siblings run concurrently: each dispatch and tool body yields once even when it
   * answered synchronously, so siblings interleave as they always have (a sibling's hooks
   * start before this call's body runs). A sequential batch has no sibling to yield to.
   */
  concurrent?: boolean;
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

type Problem = { reason: "unknown_tool" | "invalid_args"; message: string };

/** The tools the model may call in this step (the agent's, narrowed by activeTools). */
function availableTools(runtime: AgentRuntime, state: RunState): string[] {
  const names = runtime.tools.map((tool) => tool.functionName);
  return state.offeredTools ? names.filter((name) => state.offeredTools!.has(name)) : names;
}

/** Finds the tool and checks the arguments (`parsed`: the arguments were valid JSON). */
function checkCall(
  runtime: AgentRuntime,
  state: RunState,
  toolName: string,
  args: unknown,
  parsed: boolean,
  rawInput: string,
): Extract<Resolution, { ok: true }> | Problem {
  // A patch's activeTools is an allow-list: a tool the step did not offer cannot be called.
  const tool =
    state.offeredTools && !state.offeredTools.has(toolName) ? undefined : runtime.toolsByName.get(toolName);
  if (!tool) {
    return {
      reason: "unknown_tool",
      message: `unknown tool "${toolName}"; available tools: ${availableTools(runtime, state).join(", ") || "(none)"}`,
    };
  }
  if (!parsed) {
    return {
      reason: "invalid_args",
      message: `arguments for "${toolName}" are not valid JSON: ${rawInput.slice(0, 200)}`,
    };
  }
  const checked = tool.input.validate(args);
  if (checked.ok) return { ok: true, tool, args: checked.value };
  return { reason: "invalid_args", message: `invalid arguments for "${toolName}": ${checked.message}` };
}

/**
 * Finds the tool and checks the arguments; on failure runs `invalid_tool_call` recovery.
 * Synchronous for a valid call (the common case costs no promise); a promise otherwise.
 */
export function resolveCall(
  runtime: AgentRuntime,
  state: RunState,
  call: ModelToolCall,
): Resolution | Promise<Resolution> {
  const args: unknown = call.argsParsed ? call.args : call.rawInput;
  const checked = checkCall(runtime, state, call.toolName, args, call.argsParsed, call.rawInput);
  if ("ok" in checked) return checked;
  return recoverCall(runtime, state, call, args, checked);
}

/** `invalid_tool_call` recovery of a call that failed its check: one hook round, then a recheck. */
async function recoverCall(
  runtime: AgentRuntime,
  state: RunState,
  call: ModelToolCall,
  invalidArgs: unknown,
  invalid: Problem,
): Promise<Resolution> {
  let args = invalidArgs;
  let problem = invalid;
  const event = payload(state, "invalid_tool_call", {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args,
    reason: problem.reason,
    message: problem.message,
    availableTools: availableTools(runtime, state),
  });
  const context = contextFor(state);
  const outcome = await state.runner.blocking(event, context);
  state.runner.inspect(event, context);
  if (outcome.failure) return { ok: false, outcome: errorResult(call, `${outcome.failure.message}`, args) };
  const terminal = outcome.terminal;
  const flow = terminal?.flow;
  if (terminal && flow) {
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
      // The repaired call is checked once more; it gets no second recovery round.
      args = flow.call.args;
      const checked = checkCall(runtime, state, flow.call.toolName ?? call.toolName, args, true, "");
      if ("ok" in checked) return checked;
      problem = checked;
    }
  }
  return { ok: false, outcome: errorResult(call, problem.message, args) };
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
  // No tool_call hook at all: no context, no selection, no dispatch, no extra await.
  const hooked = state.runner.wants("tool_call");
  const context = hooked ? contextFor(state) : undefined;

  // A literal, not `payload()`: one object per call instead of two.
  const callEvent: EventPayload<"tool_call"> = {
    type: "tool_call",
    agentPath: state.agentPath,
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args: resolved.args,
  };
  const selection = hooked ? state.runner.select(callEvent) : EMPTY_SELECTION;
  const deciding = hooked
    ? state.runner.dispatch(callEvent, context!, selection, { validateArgs: tool.input.validate })
    : undefined;
  const decided = deciding instanceof Promise || (deciding && control.concurrent) ? await deciding : deciding;
  const callPayload = decided ? decided.payload : callEvent;
  const args = callPayload.args;
  if (decided?.failure) {
    return errorResult(call, `tool not run: ${decided.failure.message} (failed closed)`, args, tool);
  }
  const terminal = decided?.terminal;
  if (terminal) {
    const flow = terminal.flow;
    if (flow.type === "terminate") return { kind: "terminate", reason: flow.reason, hook: terminal.hook };
    if (flow.type === "skip") {
      state.runner.inspect(callPayload, context!, selection);
      return { kind: "result", ...base, args, result: flow.result, isError: false, executed: false };
    }
    if (flow.type === "deny") {
      state.runner.inspect(callPayload, context!, selection);
      return errorResult(
        call,
        `tool "${tool.qualifiedName}" was denied by hook "${terminal.hook}": ${flow.reason}`,
        args,
        tool,
      );
    }
    if (flow.type === "ask") {
      const answer = await requestApproval(runtime, state, {
        ...base,
        args,
        reason: flow.request.reason,
        handler: flow.request.handler,
      });
      if (answer.pending) {
        return { kind: "pending", ...base, args, callPayload: callPayload, approval: answer.pending };
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

  if (control.defer?.()) return { kind: "pending", ...base, args, callPayload: callPayload };
  return executeCall(state, {
    tool,
    base,
    args,
    callPayload,
    context,
    selection,
    concurrent: control.concurrent,
  });
}

export interface ExecuteInput {
  tool: ResolvedTool;
  base: { toolCallId: string; toolName: string; qualifiedName: string };
  args: unknown;
  callPayload: EventPayload<"tool_call">;
  /** The operation's context, when a hook already needed one; made on first need otherwise. */
  context: HookContext | undefined;
  selection: HookSelection;
  /** Runs the body at most once across processes (approved calls of a resumed run). */
  once?: OnceGuard;
  /** Siblings run concurrently: yield after the body and the dispatch even when synchronous (`CallControl`). */
  concurrent?: boolean;
}

/**
 * The operation and what follows it: execute → tool_error recovery → tool_result
 * transforms → inspects. Shared by `runToolCall` and a resumed run's approved calls.
 */
function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

export async function executeCall(state: RunState, input: ExecuteInput): Promise<CallOutcome> {
  const { tool, base, args, selection, once } = input;
  // Made when a hook first needs it; one per operation, shared by its events.
  let context = input.context;
  const callPayload = input.callPayload;
  let result: unknown;
  let isError = false;
  let errorText: string | undefined;
  // The hooks above may have outlived an abort; the body must not start after it.
  if (state.signal.aborted) throw abortError(state.signal);
  try {
    const value = once
      ? once.run(() => tool.execute(args, toolOptions(base.toolCallId, state)))
      : tool.execute(args, toolOptions(base.toolCallId, state));
    // A synchronous tool's value needs no promise; an abort during its body still wins.
    if (isPromiseLike(value) || input.concurrent) result = await abortable(value, state.signal);
    else if (state.signal.aborted) throw state.signal.reason;
    else result = value;
    // Inspections run after the operation (DESIGN §3), with the effective arguments.
    if (selection.inspects.length) {
      context ??= contextFor(state);
      state.runner.inspect(callPayload, context, selection);
    }
  } catch (error) {
    context ??= contextFor(state);
    if (selection.inspects.length) state.runner.inspect(callPayload, context, selection);
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
  const resultEvent: EventPayload<"tool_result"> = {
    type: "tool_result",
    agentPath: state.agentPath,
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args,
    result,
    isError,
  };
  if (errorText) resultEvent.error = errorText;
  const resultHooked = state.runner.wants("tool_result");
  const resultSelection = resultHooked ? state.runner.select(resultEvent) : EMPTY_SELECTION;
  if (resultHooked) context ??= contextFor(state);
  const rewriting = resultHooked
    ? state.runner.dispatch(resultEvent, context!, resultSelection, {
        validateResult: tool.output?.validate,
      })
    : undefined;
  const rewritten =
    rewriting instanceof Promise || (rewriting && input.concurrent) ? await rewriting : rewriting;
  if (rewritten?.failure) {
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
  if (rewritten?.terminal?.flow.type === "terminate") {
    return { kind: "terminate", reason: rewritten.terminal.flow.reason, hook: rewritten.terminal.hook };
  }
  const resultPayload = rewritten ? rewritten.payload : resultEvent;
  if (resultSelection.inspects.length) {
    context ??= contextFor(state);
    state.runner.inspect(resultPayload, context, resultSelection);
  }
  const outcome: Extract<CallOutcome, { kind: "result" }> = {
    kind: "result",
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args,
    result: resultPayload.result,
    isError,
    executed: true,
  };
  if (once?.replayed) outcome.replayed = true;
  return outcome;
}
