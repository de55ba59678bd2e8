/**
 * Context for the model from tool events (`additionalContext`, a PostToolUse block's reason):
 * tool hooks cannot add messages mid-batch, so it is kept in the step's scratchpad and one
 * `step_end` hook adds it to the transcript after the step's tool results, as a user message
 * (persisted, like every injection): the model reads it with its next request.
 */
import type { AnyHook } from "../../../hooks/define-hook.js";
import { flow } from "../../../hooks/flow.js";
import type { HookContext } from "../../../hooks/hook-context.js";
import { NOT_FIRED } from "../../../hooks/invoke-hook.js";
import type { Scratchpad } from "../../../hooks/scratchpad.js";

const KEY = "claude-hooks:context";

export function queueContext(context: HookContext, texts: readonly string[]): void {
  context.scratch.step.update<string[]>(KEY, (queued) => [...(queued ?? []), ...texts]);
}

/**
 * Takes what tool hooks queued in `step` (a harness's event, which has no `step_end`: its
 * answer carries the context to the harness, which gives it to the model).
 */
export function takeQueuedContext(step: Scratchpad): string[] {
  const queued = step.get<string[]>(KEY);
  if (queued === undefined) return [];
  step.delete(KEY);
  return queued;
}

/** The `step_end` hook that delivers what tool hooks queued in the step. */
export function contextDeliveryHook(name: string): AnyHook {
  return {
    name,
    on: "step_end",
    kind: "transform",
    handler(_event, context) {
      const queued = context.scratch.step.get<string[]>(KEY);
      if (!queued?.length) return NOT_FIRED as never;
      context.scratch.step.delete(KEY);
      return flow.inject({ role: "user", content: queued.join("\n\n") });
    },
  } as AnyHook;
}
