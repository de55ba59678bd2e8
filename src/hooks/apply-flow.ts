/**
 * One transform result applied to a dispatch's outcome: patches accumulate, rewrites chain
 * (validated against the tool's schemas), injections and message edits collect, terminal
 * results end the chain. The composition rules, in one place.
 */
import { HookError } from "../errors/hook-error.js";
import type { AnyEventPayload, ModelMessage } from "../events/payloads.js";
import { newlyUnpaired, unpairedToolCallIds } from "../events/tool-call-pairs.js";
import type { BlockingOptions, BlockingOutcome } from "./blocking.js";
import type { Flow } from "./flow.js";
import type { RegisteredHook } from "./hook-registry.js";

/** The shared empty list an outcome starts with (replaced on first write). */
export const NONE: never[] = Object.freeze([]) as never[];

const TERMINAL = new Set<Flow["type"]>(["skip", "terminate", "retry", "repair", "fallback", "allow", "deny"]);

/** Applies one transform result to the outcome; returns a failure when a rewrite is invalid. */
export function applyFlow<P extends AnyEventPayload>(
  hook: RegisteredHook,
  result: Flow,
  outcome: BlockingOutcome<P>,
  options: BlockingOptions,
): HookError | undefined {
  const payload = outcome.payload as AnyEventPayload & Record<string, unknown>;
  switch (result.type) {
    case "patch": {
      const request = (payload as { request?: { messages?: readonly ModelMessage[] } }).request;
      if (result.patch.messages && request?.messages) {
        const broken = newlyUnpaired(request.messages, result.patch.messages);
        if (broken.length) return unpaired(hook, "patch.messages", broken);
      }
      owned(outcome, "patches").push({ hook: hook.name, patch: result.patch });
      return undefined;
    }
    case "inject": {
      // Appended after a whole step: a call without its result, or a result without its
      // call, would break every later request of the session.
      const broken = unpairedToolCallIds(result.messages);
      if (broken.size) return unpaired(hook, "messages", [...broken]);
      owned(outcome, "injected").push(...result.messages);
      return undefined;
    }
    case "editMessages": {
      const broken = result.append ? unpairedToolCallIds(result.append) : undefined;
      if (broken?.size) return unpaired(hook, "append", [...broken]);
      for (const edit of result.edits) owned(outcome, "edits").push({ hook: hook.name, edit });
      if (result.append) owned(outcome, "injected").push(...result.append);
      return undefined;
    }
    case "rewriteInput":
      outcome.payload = { ...payload, input: String(result.input) } as P;
      return undefined;
    case "rewriteOutput":
      outcome.payload = { ...payload, output: String(result.output) } as P;
      return undefined;
    case "rewriteArgs": {
      const checked = options.validateArgs
        ? options.validateArgs(result.args)
        : { ok: true as const, value: result.args };
      if (!checked.ok) {
        return new HookError({
          hook: hook.name,
          event: hook.event,
          reason: "invalid_args",
          message: `rewrote the arguments into ones the tool's input schema rejects: ${checked.message}`,
        });
      }
      const original =
        "original" in payload && payload.original !== undefined ? payload.original : payload.args;
      outcome.payload = { ...payload, args: checked.value, original } as P;
      return undefined;
    }
    case "rewriteResult": {
      if (hook.event === "tool_error") {
        outcome.terminal = { flow: result, hook: hook.name };
        return undefined;
      }
      const checked = options.validateResult
        ? options.validateResult(result.result)
        : { ok: true as const, value: result.result };
      if (!checked.ok) {
        return new HookError({
          hook: hook.name,
          event: hook.event,
          reason: "invalid_result",
          message: `rewrote the result into one the tool's output schema rejects: ${checked.message}`,
        });
      }
      const original =
        "original" in payload && payload.original !== undefined ? payload.original : payload.result;
      outcome.payload = { ...payload, result: checked.value, original } as P;
      return undefined;
    }
    default:
      if (TERMINAL.has(result.type)) outcome.terminal = { flow: result, hook: hook.name };
      return undefined;
  }
}

function unpaired(hook: RegisteredHook, field: string, ids: readonly string[]): HookError {
  return new HookError({
    hook: hook.name,
    event: hook.event,
    reason: "invalid_result",
    field,
    message: `returned ${field} that leave tool call ${ids.map((id) => `"${id}"`).join(", ")} without its call or its result; a tool call and its result go in together`,
  });
}

/** The outcome's own list, made on first use (replacing the shared empty one). */
function owned<K extends "patches" | "injected" | "edits">(
  outcome: BlockingOutcome<AnyEventPayload>,
  key: K,
): BlockingOutcome<AnyEventPayload>[K] {
  if (outcome[key] === NONE) outcome[key] = [];
  return outcome[key];
}
