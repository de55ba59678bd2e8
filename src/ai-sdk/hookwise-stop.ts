/**
 * `hookwiseStop()`: an AI SDK stop condition (`stopWhen`) that ends `generateText`,
 * `streamText` or a `ToolLoopAgent` after a step in which a hook ended the run — a
 * `tool_call` or `tool_result` hook's terminate on a `hookwiseTools` call, or a
 * `model_request` hook's terminate in `hookwiseMiddleware`. It reads the steps the AI SDK
 * hands it and keeps no state, so concurrent calls and runs never see each other's ends.
 */
import { HookwiseError } from "../errors/hookwise-error.js";

/** The parts of an AI SDK step (`StepResult`) read here. */
export interface HookwiseStepLike {
  readonly content: readonly {
    readonly type: string;
    readonly toolCallId?: string;
    readonly error?: unknown;
  }[];
  readonly providerMetadata?: unknown;
}

/** Which hook ended the run, why, and (for a tool hook) the call it refused. */
export interface HookwiseTermination {
  /** The hook that ended the run (its `name`, or a config hook's `id`). */
  hook: string | undefined;
  /** The reason it gave (`flow.terminate(reason)`). */
  reason: string;
  /** The refused call's `toolCallId`; absent when a `model_request` hook ended the run. */
  toolCallId?: string;
}

function terminationOfError(error: unknown, toolCallId: string | undefined): HookwiseTermination | undefined {
  if (!HookwiseError.isInstance(error) || error.name !== "ToolCallBlockedError") return undefined;
  const blocked = error as HookwiseError & {
    terminated?: unknown;
    toolCallId?: unknown;
    hook?: unknown;
    reason?: unknown;
  };
  if (blocked.terminated !== true) return undefined;
  // The error must be this call's (a call id the AI SDK gave it), not one passed along.
  if (blocked.toolCallId !== undefined && blocked.toolCallId !== toolCallId) return undefined;
  return {
    hook: typeof blocked.hook === "string" ? blocked.hook : undefined,
    reason: typeof blocked.reason === "string" ? blocked.reason : error.message,
    ...(toolCallId !== undefined ? { toolCallId } : {}),
  };
}

/**
 * The `providerMetadata.hookwise` entries `hookwiseMiddleware` made, shared by every copy of
 * hookwise in the process: a provider can answer metadata of its own under that key (a
 * gateway passes its server's on), which must neither end the loop nor name a hook.
 */
const MADE = Symbol.for("hookwise.ai-sdk.terminated-steps");
const shared = globalThis as { [MADE]?: WeakSet<object> };
shared[MADE] ??= new WeakSet<object>();
const made = shared[MADE];

/** Marks a terminated step's metadata entry as `hookwiseMiddleware`'s own. */
export function ownTermination<T extends object>(entry: T): T {
  made.add(entry);
  return entry;
}

function terminationOfMetadata(metadata: unknown): HookwiseTermination | undefined {
  const entry = (
    metadata as
      | { hookwise?: { terminated?: unknown; hook?: unknown; reason?: unknown; toolCallId?: unknown } }
      | undefined
  )?.hookwise;
  if (entry?.terminated !== true || !made.has(entry)) return undefined;
  return {
    hook: typeof entry.hook === "string" ? entry.hook : undefined,
    reason: typeof entry.reason === "string" ? entry.reason : "",
    // A tool hook's terminate of a call the AI SDK ran before the first step (an approval's answer).
    ...(typeof entry.toolCallId === "string" ? { toolCallId: entry.toolCallId } : {}),
  };
}

/** Whether a hook ended the run in this step, and which. */
export function stepTermination(step: HookwiseStepLike): HookwiseTermination | undefined {
  const byRequest = terminationOfMetadata(step.providerMetadata);
  if (byRequest) return byRequest;
  for (const part of step.content) {
    if (part.type !== "tool-error") continue;
    const byTool = terminationOfError(part.error, part.toolCallId);
    if (byTool) return byTool;
  }
  return undefined;
}

/**
 * Which hook ended the run in these steps (`result.steps` of `generateText`, `await
 * result.steps` of `streamText`), or undefined when none did.
 */
export function hookwiseTermination(steps: readonly HookwiseStepLike[]): HookwiseTermination | undefined {
  for (let index = steps.length - 1; index >= 0; index--) {
    const found = stepTermination(steps[index]!);
    if (found) return found;
  }
  return undefined;
}

/**
 * A stop condition for the AI SDK's `stopWhen`: true after a step in which a hook ended the
 * run. Combine it with your own conditions: `stopWhen: [stepCountIs(10), hookwiseStop()]`.
 */
export function hookwiseStop(): (options: { steps: readonly HookwiseStepLike[] }) => boolean {
  return ({ steps }) => {
    const last = steps[steps.length - 1];
    return last !== undefined && stepTermination(last) !== undefined;
  };
}
