/**
 * `hookwiseTools`: AI SDK tools whose every call passes through hookwise's `tool_call` and
 * `tool_result` hooks and policies, in whatever loop runs them (`generateText`,
 * `streamText`, `ToolLoopAgent`). A denied call does not run: its execute throws an error
 * naming the hook, which the AI SDK sends to the model as the tool's error. A hook's terminate
 * throws the same error marked `terminated`, which `hookwiseStop()` turns into the loop's end.
 */

import { HookwiseError } from "../errors/hookwise-error.js";
import { nearest } from "../errors/nearest.js";
import type { EventPayload, ModelMessage } from "../events/payloads.js";
import { normalizeSchema } from "../tools/input-schema.js";
import { finalResult } from "../tools/resolved-tool.js";
import { functionToolName, qualifiedToolName } from "../tools/tool-name.js";
import { errorMessage } from "../tools/tool-output.js";
import { type HookwiseHooks, type HookwiseHooksOptions, hookwiseHooks } from "./hookwise-hooks.js";

/**
 * A tool call hookwise refused to run: a hook or policy denied it, a blocking hook failed, or a
 * hook asked to end the run (`terminated`; `hookwiseStop()` in `stopWhen` then ends the AI
 * SDK's loop after the step).
 */
export class ToolCallBlockedError extends HookwiseError {
  override readonly name = "ToolCallBlockedError";
  /** The call refused (the AI SDK's `toolCallId`), when the AI SDK gave one. */
  readonly toolCallId: string | undefined;
  /** Whether a hook asked to end the run (`flow.terminate`), rather than refusing this call only. */
  readonly terminated: boolean;
  /** The terminating hook's reason. */
  readonly reason: string | undefined;
  constructor(
    message: string,
    readonly hook: string | undefined,
    details: { toolCallId?: string; terminated?: boolean; reason?: string } = {},
  ) {
    super(message);
    this.toolCallId = details.toolCallId;
    this.terminated = details.terminated ?? false;
    this.reason = details.reason;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is ToolCallBlockedError {
    return HookwiseError.isInstance(error) && error.name === "ToolCallBlockedError";
  }
}

/** The parts of an AI SDK tool hookwiseTools reads; everything else passes through unchanged. */
interface AiSdkToolLike {
  inputSchema?: unknown;
  execute?: (input: any, options: any) => unknown;
}

export interface HookwiseToolsOptions {
  /**
   * The toolset the tools belong to: hooks and policies then see the names hookwise's own
   * loop gives them, the qualified `<toolset>.<name>` (`shop.delete_all`) and the function
   * name `<toolset>_<name>` (`shop_delete_all`, the payload's `toolName`), so one config
   * matches the same calls in both loops. Default: both are the tool's key.
   */
  toolset?: string;
}

type ExecuteOptions = { toolCallId?: string; messages?: ModelMessage[]; abortSignal?: AbortSignal };

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/**
 * Wraps each tool's execute with hookwise's `tool_call` hooks (rewrites checked against
 * the tool's schema, decides and policies, approvals through `approve`) and `tool_result`
 * hooks (rewrites, inspections). Tools without execute pass through unchanged.
 */
export function hookwiseTools<T extends Record<string, AiSdkToolLike>>(
  tools: T,
  hooks: HookwiseHooks | HookwiseHooksOptions,
  options: HookwiseToolsOptions = {},
): T {
  const set =
    hooks instanceof Object && "operation" in hooks ? (hooks as HookwiseHooks) : hookwiseHooks(hooks);
  const wrapped: Record<string, AiSdkToolLike> = {};
  for (const name of Object.keys(tools)) checkKnown(set, name, options.toolset);
  for (const [name, tool] of Object.entries(tools)) {
    if (typeof tool.execute !== "function") {
      // A copy: an execute that appears on the original later (a lazy getter, an assignment)
      // must not reach the AI SDK unwrapped.
      wrapped[name] = { ...tool };
      continue;
    }
    const qualifiedName = qualifiedToolName(options.toolset, name);
    const functionName = functionToolName(options.toolset, name);
    let checks: ReturnType<typeof normalizeSchema> | undefined;
    const execute = tool.execute;
    wrapped[name] = {
      ...tool,
      execute: async (input: unknown, execution: ExecuteOptions = {}) => {
        checks ??= normalizeSchema(tool.inputSchema, `tool "${qualifiedName}"`);
        return runCall(set, { name, functionName, qualifiedName, checks }, input, execution, (args) =>
          execute.call(tool, args, execution),
        );
      },
    };
  }
  return wrapped as T;
}

/**
 * A config checked against `knownTools` guards those names only: a tool wrapped under
 * another name (the toolset forgotten or misspelt) would run with none of its policies.
 */
function checkKnown(set: HookwiseHooks, name: string, toolset: string | undefined): void {
  const known = set.knownTools;
  if (known === undefined) return;
  const qualifiedName = toolset ? `${toolset}.${name}` : name;
  if (known.includes(qualifiedName)) return;
  const inToolset = known.find((candidate) => candidate.endsWith(`.${name}`));
  const hint =
    !toolset && inToolset
      ? `did you mean hookwiseTools(tools, hooks, { toolset: "${inToolset.slice(0, -name.length - 1)}" })?`
      : nearest(qualifiedName, known)
        ? `did you mean "${nearest(qualifiedName, known)}"?`
        : "add it to knownTools, or give the toolset the config names it under";
  throw new TypeError(
    `hookwiseTools: tool "${qualifiedName}" is not among the knownTools the config was loaded with (${known.join(", ")}); ${hint}`,
  );
}

/**
 * Asks `answer` (an ask's handler or the hooks' `approve`): undefined when it approved (answered
 * `true`), else what the refusal message adds. Only `true` approves; a throw or any other answer
 * refuses the call.
 */
async function approval(
  answer: ((call: never) => unknown) | undefined,
  call: Record<string, unknown>,
): Promise<string | undefined> {
  if (!answer) return "; inside an AI SDK loop an ask needs an `approve` function";
  let approved: unknown;
  try {
    approved = await answer(call as never);
  } catch (error) {
    return `: approve threw: ${errorMessage(error)} (failed closed)`;
  }
  if (approved === true) return undefined;
  if (approved === false) return "";
  return `: approve answered ${JSON.stringify(approved)?.slice(0, 80) ?? String(approved)}, expected true or false (failed closed)`;
}

/**
 * Whether the AI SDK runs this call before its loop's first step: the answer to a tool
 * approval (`needsApproval`), whose approval request is in the last assistant message it is
 * given (in a step, the messages end before the step's own response; an older request of the
 * same call id, earlier in the conversation, is another call's).
 */
function beforeFirstStep(execution: ExecuteOptions): boolean {
  const id = execution.toolCallId;
  if (id === undefined) return false;
  const last = execution.messages?.findLast((message) => message.role === "assistant");
  return (
    last !== undefined &&
    Array.isArray(last.content) &&
    last.content.some((part) => part.type === "tool-approval-request" && part.toolCallId === id)
  );
}

/**
 * A hook's terminate of this call. Run before the loop's first step (a tool approval's
 * answer), no step shows it to `hookwiseStop()`: the call is recorded, and `hookwiseMiddleware`
 * answers the model call that would read its failure as ended.
 */
function terminated(
  set: HookwiseHooks,
  execution: ExecuteOptions,
  message: string,
  hook: string,
  reason: string,
): ToolCallBlockedError {
  if (execution.toolCallId !== undefined && beforeFirstStep(execution))
    set.markEndedBeforeStep(execution.toolCallId, { message, hook, reason });
  return new ToolCallBlockedError(message, hook, {
    toolCallId: execution.toolCallId,
    terminated: true,
    reason,
  });
}

async function runCall(
  set: HookwiseHooks,
  /** `name`: the tool's key, what the model calls; `functionName`: what hooks see as `toolName`. */
  tool: {
    name: string;
    functionName: string;
    qualifiedName: string;
    checks: ReturnType<typeof normalizeSchema>;
  },
  input: unknown,
  execution: ExecuteOptions,
  body: (args: unknown) => unknown,
): Promise<unknown> {
  const unoffered = execution.toolCallId ? set.takeUnoffered(execution.toolCallId, tool.name) : undefined;
  if (unoffered) {
    const by = unoffered.hooks.length
      ? ` (activeTools of hook ${unoffered.hooks.map((hook) => `"${hook}"`).join(", ")})`
      : "";
    throw new ToolCallBlockedError(
      `tool "${tool.qualifiedName}" was not offered to the model in this step${by}; not run`,
      unoffered.hooks[0],
      { toolCallId: execution.toolCallId },
    );
  }
  const wantsCall = set.wants("tool_call");
  const wantsResult = set.wants("tool_result");
  if (!wantsCall && !wantsResult) return body(input);
  const { runner, context, agentPath } = set.operation({
    messages: execution.messages ?? [],
    signal: execution.abortSignal,
    streaming: false,
  });
  const toolCallId = execution.toolCallId ?? "call";
  const base = { toolCallId, toolName: tool.functionName, qualifiedName: tool.qualifiedName };
  let args = input;
  let callPayload: EventPayload<"tool_call"> | undefined;
  if (wantsCall) {
    callPayload = { type: "tool_call", agentPath, ...base, args };
    const selection = runner.select(callPayload, "tool_call");
    const decided = await runner.dispatch(callPayload, context, selection, {
      validateArgs: tool.checks.validate,
    });
    callPayload = decided.payload;
    args = callPayload.args;
    if (decided.failure) {
      throw new ToolCallBlockedError(
        `tool "${tool.qualifiedName}" not run: ${decided.failure.message} (failed closed)`,
        decided.failure.hook,
        { toolCallId: execution.toolCallId },
      );
    }
    const terminal = decided.terminal;
    if (terminal) {
      const flow = terminal.flow;
      if (flow.type === "deny") {
        runner.inspect(callPayload, context, selection);
        throw new ToolCallBlockedError(
          `tool "${tool.qualifiedName}" was denied by hook "${terminal.hook}": ${flow.reason}`,
          terminal.hook,
          { toolCallId: execution.toolCallId },
        );
      }
      if (flow.type === "terminate") {
        throw terminated(
          set,
          execution,
          `tool "${tool.qualifiedName}" not run: hook "${terminal.hook}" ended the run: ${flow.reason}`,
          terminal.hook,
          flow.reason,
        );
      }
      if (flow.type === "skip") {
        runner.inspect(callPayload, context, selection);
        return flow.result;
      }
      if (flow.type === "ask") {
        const call = { ...base, args };
        const answer = flow.request.handler ?? set.approve;
        const refused = await approval(answer, call);
        if (refused !== undefined) {
          throw new ToolCallBlockedError(
            `tool "${tool.qualifiedName}" was not approved (hook "${terminal.hook}"${flow.request.reason ? `: ${flow.request.reason}` : ""})${refused}`,
            terminal.hook,
            { toolCallId: execution.toolCallId },
          );
        }
      }
    }
    runner.inspect(callPayload, context, selection);
  }
  // An async iterable of preliminary results: hooks (and the model) get its last value.
  let result: unknown;
  let errorText: string | undefined;
  try {
    result = finalResult(body(args));
    if (isPromiseLike(result)) result = await result;
  } catch (error) {
    // A call refused by the hooks of tools wrapped again inside (a config's, then the app's)
    // is no tool failure: it stays the refusal, its terminate included, for `hookwiseStop()`.
    if (!wantsResult || ToolCallBlockedError.isInstance(error)) throw error;
    // As in hookwise's loop, tool_result hooks see the failure (a redaction covers its message).
    errorText = errorMessage(error);
    result = `tool "${tool.qualifiedName}" failed: ${errorText}`;
  }
  if (!wantsResult) return result;
  const resultPayload: EventPayload<"tool_result"> = {
    type: "tool_result",
    agentPath,
    ...base,
    args,
    result,
    isError: errorText !== undefined,
  };
  if (errorText !== undefined) resultPayload.error = errorText;
  const selection = runner.select(resultPayload, "tool_result");
  const rewritten = await runner.dispatch(resultPayload, context, selection);
  if (rewritten.failure) {
    throw new ToolCallBlockedError(
      `tool "${tool.qualifiedName}" result withheld: ${rewritten.failure.message} (failed closed)`,
      rewritten.failure.hook,
      { toolCallId: execution.toolCallId },
    );
  }
  if (rewritten.terminal?.flow.type === "terminate") {
    const reason = rewritten.terminal.flow.reason;
    throw terminated(
      set,
      execution,
      `tool "${tool.qualifiedName}" result withheld: hook "${rewritten.terminal.hook}" ended the run: ${reason}`,
      rewritten.terminal.hook,
      reason,
    );
  }
  runner.inspect(rewritten.payload, context, selection);
  if (errorText === undefined) return rewritten.payload.result;
  // The AI SDK sends the model a thrown error's message: the (possibly rewritten) failure.
  const sent = rewritten.payload.result;
  throw new Error(typeof sent === "string" ? sent : JSON.stringify(sent));
}
