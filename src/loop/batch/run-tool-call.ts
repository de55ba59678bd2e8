/**
 * One tool call through its hooks: invalid_tool_call recovery → tool_call transforms
 * (chained rewrites, validated) → decides (policies among them) → approval → execute →
 * tool_error recovery → tool_result transforms → inspects with the final data.
 * Never throws for a hook or tool failure: the model gets an error result naming it.
 */

import type { EventPayload } from "../../events/payloads.js";
import type { BlockingOutcome } from "../../hooks/blocking.js";
import type { AskRequest } from "../../hooks/flow.js";
import { EMPTY_SELECTION } from "../../hooks/hook-registry.js";
import type { ModelToolCall } from "../../models/language-model.js";
import type { Validation } from "../../tools/input-schema.js";
import type { ResolvedTool } from "../../tools/resolved-tool.js";
import { errorMessage } from "../../tools/tool-output.js";
import { abortError } from "../abortable.js";
import { contextFor, payload, type RunState } from "../run-state.js";
import type { LoopRuntime } from "../types.js";
import { toolOptions } from "./calling-run.js";
import { type ExecuteInput, executeCall } from "./execute-call.js";
import type { CallOutcome, PendingCall } from "./types.js";

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

/**
 * The tools the model may call in this step: the ones it is offered (a tool a policy denies
 * whatever its arguments is not, and an error does not name it either), narrowed by activeTools.
 */
function availableTools(runtime: LoopRuntime, state: RunState): string[] {
  const names = runtime.toolSpecs.map((spec) => spec.name);
  return state.offeredTools ? names.filter((name) => state.offeredTools!.has(name)) : names;
}

/** Finds the tool and checks the arguments (`parsed`: the arguments were valid JSON). */
function checkCall(
  runtime: LoopRuntime,
  state: RunState,
  toolName: string,
  args: unknown,
  parsed: boolean,
  rawInput: string,
): Extract<Resolution, { ok: true }> | Problem | Promise<Extract<Resolution, { ok: true }> | Problem> {
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
  const checked = tool.input.check(args);
  // A schema that validates asynchronously answers with a promise (the rare case).
  if (checked instanceof Promise) return checked.then((answer) => checkedCall(tool, toolName, answer));
  return checkedCall(tool, toolName, checked);
}

function checkedCall(
  tool: ResolvedTool,
  toolName: string,
  checked: Validation,
): Extract<Resolution, { ok: true }> | Problem {
  if (checked.ok) return { ok: true, tool, args: checked.value };
  return { reason: "invalid_args", message: `invalid arguments for "${toolName}": ${checked.message}` };
}

/**
 * Finds the tool and checks the arguments; on failure runs `invalid_tool_call` recovery.
 * Synchronous for a valid call (the common case costs no promise); a promise otherwise.
 */
export function resolveCall(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
): Resolution | Promise<Resolution> {
  const args: unknown = call.argsParsed ? call.args : call.rawInput;
  const checked = checkCall(runtime, state, call.toolName, args, call.argsParsed, call.rawInput);
  if (checked instanceof Promise)
    return checked.then((answer) =>
      "ok" in answer ? answer : recoverCall(runtime, state, call, args, answer),
    );
  if ("ok" in checked) return checked;
  return recoverCall(runtime, state, call, args, checked);
}

/** `invalid_tool_call` recovery of a call that failed its check: one hook round, then a recheck. */
async function recoverCall(
  runtime: LoopRuntime,
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
      const checked = await checkCall(runtime, state, flow.call.toolName ?? call.toolName, args, true, "");
      if ("ok" in checked) return checked;
      problem = checked;
    }
  }
  return { ok: false, outcome: errorResult(call, problem.message, args) };
}

/**
 * Runs one call through its hooks and body. Synchronous while nothing needs a promise (no
 * hook answers with one, the tool body returns a value, no sibling to yield to): a
 * sequential batch of synchronous tools then costs no microtask per call.
 */
export function runToolCall(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl = {},
  /** The call already found and checked (the batch resolves every call before running any). */
  resolution?: Resolution,
): CallOutcome | Promise<CallOutcome> {
  // An aborted run starts nothing new: no hooks, no tool body (siblings may still be queued).
  if (state.signal.aborted) return Promise.reject(abortError(state.signal));
  if (state.telemetry === undefined) return runCall(runtime, state, call, control, resolution);
  return tracedCall(runtime, state, call, control, resolution);
}

/** `runCall` inside the call's span (`execute_tool`), which its hooks' spans hang under. */
function tracedCall(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  resolution: Resolution | undefined,
): CallOutcome | Promise<CallOutcome> {
  const telemetry = state.telemetry!;
  telemetry.toolStarted(call);
  let running: CallOutcome | Promise<CallOutcome>;
  try {
    running = runCall(runtime, state, call, control, resolution);
  } catch (error) {
    telemetry.toolFailed(call.toolCallId, error);
    throw error;
  }
  if (!(running instanceof Promise)) {
    telemetry.toolEnded(call.toolCallId, running);
    return running;
  }
  return running.then(
    (outcome) => {
      telemetry.toolEnded(call.toolCallId, outcome);
      return outcome;
    },
    (error: unknown) => {
      telemetry.toolFailed(call.toolCallId, error);
      throw error;
    },
  );
}

function runCall(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  resolution: Resolution | undefined,
): CallOutcome | Promise<CallOutcome> {
  if (resolution === undefined) {
    const resolving = resolveCall(runtime, state, call);
    if (resolving instanceof Promise) return runWhenResolved(runtime, state, call, control, resolving);
    resolution = resolving;
  }
  if (!resolution.ok) return resolution.outcome;
  runtime.onToolCallStart?.(state.runId, call.toolCallId, state.runner.traceLength);
  const { tool } = resolution;
  const base = {
    toolCallId: call.toolCallId,
    toolName: tool.functionName,
    qualifiedName: tool.qualifiedName,
  };
  // No tool_call hook at all: no payload, context, selection, dispatch or await.
  if (!state.runner.wants("tool_call")) {
    const input: ExecuteInput = {
      tool,
      base,
      args: resolution.args,
      callPayload: undefined,
      context: undefined,
      selection: EMPTY_SELECTION,
      concurrent: control.concurrent,
    };
    if (tool.needsApproval !== undefined) return approvalNeeded(runtime, state, call, control, input);
    return control.defer?.() ? pendingCall(state, base, input) : executeCall(state, input);
  }
  const callEvent = toolCallEvent(state, base, resolution.args);
  const context = contextFor(state);
  const selection = state.runner.select(callEvent, "tool_call");
  const deciding = state.runner.dispatch(callEvent, context, selection, tool.checks);
  // One input for the rest of the call; the decision fills in the effective args.
  const input: ExecuteInput = {
    tool,
    base,
    args: resolution.args,
    callPayload: callEvent,
    context,
    selection,
    concurrent: control.concurrent,
  };
  // Concurrent siblings yield once here even when the hooks answered synchronously.
  if (deciding instanceof Promise || control.concurrent)
    return decideLater(runtime, state, call, control, input, deciding);
  return afterDecide(runtime, state, call, control, input, deciding);
}

// The promise paths have functions of their own: a closure in `runToolCall` would cost
// every call a context object, synchronous or not.

function runWhenResolved(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  resolving: Promise<Resolution>,
): Promise<CallOutcome> {
  return resolving.then((resolved) => runCall(runtime, state, call, control, resolved));
}

function decideLater(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  input: ExecuteInput,
  deciding: BlockingOutcome<EventPayload<"tool_call">> | Promise<BlockingOutcome<EventPayload<"tool_call">>>,
): Promise<CallOutcome> {
  return Promise.resolve(deciding).then((decided) =>
    afterDecide(runtime, state, call, control, input, decided),
  );
}

/** A call's `tool_call` payload: a literal, not `payload()` (one object per call instead of two). */
function toolCallEvent(
  state: RunState,
  base: ExecuteInput["base"],
  args: unknown,
): EventPayload<"tool_call"> {
  return {
    type: "tool_call",
    agentPath: state.agentPath,
    toolCallId: base.toolCallId,
    toolName: base.toolName,
    qualifiedName: base.qualifiedName,
    args,
  };
}

function pendingCall(state: RunState, base: ExecuteInput["base"], input: ExecuteInput): PendingCall {
  const callPayload = input.callPayload ?? toolCallEvent(state, base, input.args);
  return { kind: "pending", ...base, args: input.args, callPayload };
}

/** What the tool_call transforms and decides answered: fail closed, skip, deny, ask, or run. */
function afterDecide(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  input: ExecuteInput,
  decided: BlockingOutcome<EventPayload<"tool_call">>,
): CallOutcome | Promise<CallOutcome> {
  const { tool, base, context, selection } = input;
  const callPayload = decided.payload;
  const args = callPayload.args;
  input.callPayload = callPayload;
  input.args = args;
  if (decided.failure) {
    return errorResult(call, `tool not run: ${decided.failure.message} (failed closed)`, args, tool);
  }
  const terminal = decided.terminal;
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
    if (flow.type === "ask") return askThenExecute(runtime, state, call, control, input, flow.request);
  }
  if (tool.needsApproval !== undefined) return approvalNeeded(runtime, state, call, control, input);
  return control.defer?.() ? pendingCall(state, base, input) : executeCall(state, input);
}

/**
 * A tool's own `needsApproval` (true, or a function of the arguments): an `ask` decision,
 * unless a hook denied or skipped the call already. A function that throws or answers
 * anything but a boolean fails closed.
 */
async function approvalNeeded(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  input: ExecuteInput,
): Promise<CallOutcome> {
  const { tool, base, args } = input;
  const needs = tool.needsApproval!;
  let asks: unknown;
  try {
    asks =
      needs === true ||
      (typeof needs === "function" && (await needs(args, toolOptions(base.toolCallId, state))));
  } catch (error) {
    return errorResult(
      call,
      `tool not run: the needsApproval of tool "${tool.qualifiedName}" threw: ${errorMessage(error)} (failed closed)`,
      args,
      tool,
    );
  }
  if (typeof asks !== "boolean") {
    // A wrong answer is no answer: neither run unasked nor asked on a guess.
    return errorResult(
      call,
      `tool not run: the needsApproval of tool "${tool.qualifiedName}" answered ${JSON.stringify(asks)?.slice(0, 80) ?? String(asks)}, expected true or false (failed closed)`,
      args,
      tool,
    );
  }
  if (asks) {
    return askThenExecute(runtime, state, call, control, input, {
      reason: `tool "${tool.qualifiedName}" needs approval`,
    });
  }
  return control.defer?.() ? pendingCall(state, base, input) : executeCall(state, input);
}

/** An `ask` decision: the approval channel answers (or the call waits for a human). */
async function askThenExecute(
  runtime: LoopRuntime,
  state: RunState,
  call: ModelToolCall,
  control: CallControl,
  input: ExecuteInput,
  request: AskRequest,
): Promise<CallOutcome> {
  const { base, args, tool } = input;
  const answer = await state.approvals.ask(runtime, state, {
    ...base,
    args,
    reason: request.reason,
    handler: request.handler,
  });
  if (answer.pending) {
    return { ...pendingCall(state, base, input), approval: answer.pending };
  }
  if (!answer.approved) {
    return errorResult(call, `tool "${tool.qualifiedName}" was not approved: ${answer.reason}`, args, tool);
  }
  return control.defer?.() ? pendingCall(state, base, input) : executeCall(state, input);
}
