/**
 * A call's operation and what follows it: the before-observers, the tool
 * body, `tool_error` recovery, `tool_result` transforms (chained rewrites, fail closed), then
 * inspections.
 *
 * What the body returns or throws is where a tool's output enters the run, whatever the
 * toolset (MCP, OpenAPI, code, a sub-agent): every registered secret is masked out of it
 * there (secrets/secret-registry.ts), before a hook, the transcript, the store, a span, an
 * event or the result sees it.
 */

import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { EventPayload } from "../../events/payloads.js";
import type { BlockingOutcome } from "../../hooks/blocking.js";
import type { HookContext } from "../../hooks/hook-context.js";
import type { HookSelection } from "../../hooks/hook-registry.js";
import { maskSecretsIn } from "../../secrets/secret-registry.js";
import type { ResolvedTool } from "../../tools/resolved-tool.js";
import { errorMessage } from "../../tools/tool-output.js";
import { abortable, abortError } from "../abortable.js";
import { contextFor, payload, type RunState } from "../run-state.js";
import { toolOptions } from "./calling-run.js";
import type { CallOutcome, OnceGuard } from "./types.js";

export interface ExecuteInput {
  tool: ResolvedTool;
  base: { toolCallId: string; toolName: string; qualifiedName: string };
  args: unknown;
  /** The `tool_call` payload after rewrites; undefined when no `tool_call` hook is registered. */
  callPayload: EventPayload<"tool_call"> | undefined;
  /** The operation's context, when a hook already needed one; made on first need otherwise. */
  context: HookContext | undefined;
  selection: HookSelection;
  /** Runs the body at most once across processes (approved calls of a resumed run). */
  once?: OnceGuard;
  /** Siblings run concurrently: yield after the body and the dispatch even when synchronous (`CallControl`). */
  concurrent?: boolean;
  /** The before-observers (`when: "before"`) have run for this call. */
  observed?: boolean;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * The operation and what follows it: execute → tool_error recovery → tool_result
 * transforms → inspects. Shared by `runToolCall` and a resumed run's approved calls.
 * Synchronous while the body and the hooks answer synchronously (and no sibling runs).
 */
export function executeCall(state: RunState, input: ExecuteInput): CallOutcome | Promise<CallOutcome> {
  // Every decide allowed the call: the before-observers see it, then the body runs.
  if (input.selection.observers.length && !input.observed) return observeThenExecute(state, input);
  const { tool, base, args, once } = input;
  // The hooks above may have outlived an abort; the body must not start after it.
  if (state.signal.aborted) return Promise.reject(abortError(state.signal));
  let value: unknown;
  try {
    value = once
      ? runOnce(once, input, state)
      : state.telemetry === undefined
        ? tool.execute(args, toolOptions(base.toolCallId, state))
        : executeInSpan(state, input);
  } catch (error) {
    return recoverCallError(state, input, error);
  }
  // A synchronous tool's value needs no promise; an abort during its body still wins.
  if (isPromiseLike(value) || input.concurrent) {
    return bodyLater(state, input, value);
  }
  if (state.signal.aborted) return recoverCallError(state, input, state.signal.reason);
  return afterBody(state, input, value);
}

/** The body answered: inspections of tool_call (after the operation), then tool_result. */
function afterBody(state: RunState, input: ExecuteInput, body: unknown): CallOutcome | Promise<CallOutcome> {
  const result = maskSecretsIn(body);
  if (input.selection.inspects.length) {
    input.context ??= contextFor(state);
    state.runner.inspect(input.callPayload!, input.context, input.selection);
  }
  return finishCall(state, input, result, false, undefined);
}

/** The body threw or rejected: `tool_error` hooks may recover, rewrite the result or terminate. */
async function recoverCallError(state: RunState, input: ExecuteInput, thrown: unknown): Promise<CallOutcome> {
  const { tool, base, args, selection } = input;
  const error = maskSecretsIn(thrown);
  input.context ??= contextFor(state);
  const context = input.context;
  if (selection.inspects.length) state.runner.inspect(input.callPayload!, context, selection);
  if (state.signal.aborted) throw error;
  const errorEvent = payload(state, "tool_error", { ...base, args, error });
  const recovered = await state.runner.blocking(errorEvent, context);
  state.runner.inspect(errorEvent, context);
  if (recovered.terminal?.flow.type === "terminate") {
    return { kind: "terminate", reason: recovered.terminal.flow.reason, hook: recovered.terminal.hook };
  }
  if (recovered.terminal?.flow.type === "rewriteResult")
    return finishCall(state, input, recovered.terminal.flow.result, false, undefined);
  const errorText = errorMessage(error);
  const result = recovered.failure
    ? `tool "${tool.qualifiedName}" failed: ${errorText}; recovery ${recovered.failure.message}`
    : `tool "${tool.qualifiedName}" failed: ${errorText}`;
  return finishCall(state, input, result, true, errorText);
}

/** `tool_result` transforms (chained rewrites; fail closed withholds the raw output), then inspects. */
function finishCall(
  state: RunState,
  input: ExecuteInput,
  result: unknown,
  isError: boolean,
  errorText: string | undefined,
): CallOutcome | Promise<CallOutcome> {
  // No tool_result hook: no payload, selection, context or dispatch.
  if (!state.runner.wants("tool_result")) return resultOutcome(input, result, isError);
  const { base, args } = input;
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
  const selection = state.runner.select(resultEvent, "tool_result");
  input.context ??= contextFor(state);
  const context = input.context;
  const rewriting = state.runner.dispatch(resultEvent, context, selection, input.tool.checks);
  if (rewriting instanceof Promise || input.concurrent)
    return resultHooksLater(state, input, rewriting, selection, isError);
  return afterResultHooks(state, input, rewriting, selection, isError);
}

// The promise paths have functions of their own: a closure in `executeCall` or `finishCall`
// would cost every call a context object, synchronous or not.

/** The body with its call's span active: spans the tool makes (a sub-agent's run, an HTTP client's) are its children. */
function executeInSpan(state: RunState, input: ExecuteInput): unknown {
  const { tool, args, base } = input;
  return state.telemetry!.inTool(base.toolCallId, () =>
    tool.execute(args, toolOptions(base.toolCallId, state)),
  );
}

async function observeThenExecute(state: RunState, input: ExecuteInput): Promise<CallOutcome> {
  input.observed = true;
  if (state.signal.aborted) throw abortError(state.signal);
  input.context ??= contextFor(state);
  await state.runner.observe(input.callPayload!, input.context, input.selection);
  return executeCall(state, input);
}

/** The body under the ledger, which keeps what it returned: masked before it is kept. */
function runOnce(once: OnceGuard, input: ExecuteInput, state: RunState): unknown {
  return once.run(() => {
    const value = input.tool.execute(input.args, toolOptions(input.base.toolCallId, state));
    return isPromiseLike(value) ? Promise.resolve(value).then(maskSecretsIn) : maskSecretsIn(value);
  });
}

function bodyLater(state: RunState, input: ExecuteInput, value: unknown): Promise<CallOutcome> {
  return abortable(value, state.signal).then(
    (result) => afterBody(state, input, result),
    (error: unknown) => recoverCallError(state, input, error),
  );
}

function resultHooksLater(
  state: RunState,
  input: ExecuteInput,
  rewriting:
    | BlockingOutcome<EventPayload<"tool_result">>
    | Promise<BlockingOutcome<EventPayload<"tool_result">>>,
  selection: HookSelection,
  isError: boolean,
): Promise<CallOutcome> {
  return Promise.resolve(rewriting).then((rewritten) =>
    afterResultHooks(state, input, rewritten, selection, isError),
  );
}

function afterResultHooks(
  state: RunState,
  input: ExecuteInput,
  rewritten: BlockingOutcome<EventPayload<"tool_result">>,
  selection: HookSelection,
  isError: boolean,
): CallOutcome | Promise<CallOutcome> {
  if (rewritten.failure) {
    // Fail closed: the raw output never reaches the model, the trace or the logs.
    return resultOutcome(input, `tool result withheld: ${rewritten.failure.message} (failed closed)`, true);
  }
  if (rewritten.terminal?.flow.type === "terminate") {
    return { kind: "terminate", reason: rewritten.terminal.flow.reason, hook: rewritten.terminal.hook };
  }
  if (selection.inspects.length) state.runner.inspect(rewritten.payload, input.context!, selection);
  return resultOutcome(input, rewritten.payload.result, isError);
}

function resultOutcome(
  input: ExecuteInput,
  result: unknown,
  isError: boolean,
): CallOutcome | Promise<CallOutcome> {
  const outcome: Extract<CallOutcome, { kind: "result" }> = {
    kind: "result",
    toolCallId: input.base.toolCallId,
    toolName: input.base.toolName,
    qualifiedName: input.base.qualifiedName,
    args: input.args,
    result,
    isError,
    executed: true,
  };
  if (input.once?.replayed) outcome.replayed = true;
  if (isError || input.tool.toModelOutput === undefined) return outcome;
  return withModelOutput(input.tool, outcome);
}

const MODEL_OUTPUT_TYPES = new Set([
  "text",
  "json",
  "error-text",
  "error-json",
  "execution-denied",
  "content",
]);

/** `toModelOutput` answered something the model cannot be sent. */
class BadModelOutput extends Error {}

/** What `toModelOutput` answered, if it is a shape the model can be sent; a throw otherwise. */
function checkedModelOutput(output: unknown): ToolResultOutput {
  const type = (output as { type?: unknown } | null)?.type;
  if (
    typeof output !== "object" ||
    output === null ||
    typeof type !== "string" ||
    !MODEL_OUTPUT_TYPES.has(type)
  ) {
    throw new BadModelOutput(
      `returned ${JSON.stringify(output)?.slice(0, 80) ?? String(output)}; expected { type, value } with type one of ${[...MODEL_OUTPUT_TYPES].join(", ")}`,
    );
  }
  const value = (output as { value?: unknown }).value;
  if ((type === "text" || type === "error-text") && typeof value !== "string") {
    throw new BadModelOutput(`returned a "${type}" output whose value is not a string`);
  }
  if (type === "content" && !Array.isArray(value)) {
    throw new BadModelOutput(`returned a "content" output whose value is not an array`);
  }
  return output as ToolResultOutput;
}

/** The tool's `toModelOutput` maps the result to what the model is sent; a throw is the call's error. */
function withModelOutput(
  tool: ResolvedTool,
  outcome: Extract<CallOutcome, { kind: "result" }>,
): CallOutcome | Promise<CallOutcome> {
  const failed = (error: unknown): CallOutcome => ({
    ...outcome,
    result: `tool "${tool.qualifiedName}" failed: its toModelOutput ${error instanceof BadModelOutput ? error.message : `threw: ${errorMessage(error)}`}`,
    isError: true,
  });
  try {
    const mapped = tool.toModelOutput!({
      toolCallId: outcome.toolCallId,
      input: outcome.args,
      output: outcome.result,
    });
    if (!isPromiseLike(mapped)) {
      outcome.modelOutput = checkedModelOutput(mapped);
      return outcome;
    }
    return Promise.resolve(mapped)
      .then((output) => {
        outcome.modelOutput = checkedModelOutput(output);
        return outcome as CallOutcome;
      })
      .then(undefined, failed);
  } catch (error) {
    return failed(error);
  }
}
