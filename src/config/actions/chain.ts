/**
 * `chain`: runs its actions in order.
 *
 * - Kind: transform when a child transforms, else decide when a child decides, else
 *   inspect. Mixing decide and transform children is a compile-time error: a hook has one
 *   kind, and the engine runs transforms before decides.
 * - Events: each child is checked against the hook's event on its own (the loader walks
 *   `children`), which is the intersection of the children's events; `actionEvents()` in
 *   `index.ts` computes it.
 * - A child's rewrite is visible to later children and the accumulated rewrite is the
 *   chain's answer (`chain-accumulator.ts`); the first terminal flow (deny, skip,
 *   terminate…) stops the chain and is returned.
 * - A child that throws is recorded in the run scratchpad's `hook_failures`
 *   (`[{hook, action, error}]`) and logged; with `stop_on_failure: true` the chain stops
 *   and rethrows (a blocking chain then fails closed), otherwise it goes on — except after
 *   a ChainAbortError (`pipe` with `on_error: raise`) or the hook's own timeout (a `shell`
 *   child's command ended by it), which always stop the chain.
 */
import { z } from "../../deps/zod.js";
import type { HookKind } from "../../events/catalogue.js";
import type { Flow } from "../../hooks/flow.js";
import { HookTimedOut } from "../../hooks/invoke-hook.js";
import type { Evaluation } from "../build/evaluation.js";
import { defineAction } from "./action-module.js";
import { actionRef } from "./action-ref.js";
import { ChainAbortError } from "./chain-abort-error.js";
import { ChainAccumulator, isTerminal } from "./chain-accumulator.js";

const description =
  "Runs actions in order; failures land in hook_failures (stop_on_failure aborts the chain).";

export interface HookFailure {
  hook: string;
  action: string;
  error: string;
}

export const HOOK_FAILURES = "hook_failures";

function recordFailure(evaluation: Evaluation, action: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const failure: HookFailure = { hook: evaluation.hookId, action, error: message };
  evaluation.context.scratch.run.update<HookFailure[]>(HOOK_FAILURES, (list) => [...(list ?? []), failure]);
  return message;
}

export const chain = defineAction({
  type: "chain",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("chain"),
        actions: z.array(actionRef()).min(1).describe("The actions, run in order"),
        stop_on_failure: z
          .boolean()
          .default(false)
          .describe("Abort (and fail) on the first action that throws"),
      })
      .describe(description),
  events: "any",
  children: (config) => config.actions.map((value, index) => ({ value, path: ["actions", index] })),
  kind(config, childKinds): HookKind {
    const deciding = config.actions.filter((_, index) => childKinds[index] === "decide").map((a) => a.type);
    const transforming = config.actions
      .filter((_, index) => childKinds[index] === "transform")
      .map((a) => a.type);
    if (deciding.length && transforming.length) {
      throw new Error(
        `a chain cannot mix decide actions (${deciding.join(", ")}) with transform actions (${transforming.join(", ")}): ` +
          "put them in two hooks on the same event (transforms run before decides)",
      );
    }
    return transforming.length ? "transform" : deciding.length ? "decide" : "inspect";
  },
  compile(config, services, compileChild) {
    const children = config.actions.map((value, index) => compileChild(value, ["actions", index]));
    return async (evaluation): Promise<Flow | undefined> => {
      const accumulator = new ChainAccumulator(evaluation);
      for (const [index, child] of children.entries()) {
        let result: Flow | undefined;
        try {
          result = await child.run(accumulator.evaluation);
        } catch (error) {
          const message = recordFailure(evaluation, child.type, error);
          services.log.error(
            `hook "${evaluation.hookId}": chain action ${index} (${child.type}) failed: ${message}`,
            {
              hook: evaluation.hookId,
              action: child.type,
              index,
            },
          );
          // The hook's own timeout ended the child: the hook has no answer, the chain ends here.
          if (config.stop_on_failure || ChainAbortError.isInstance(error) || error instanceof HookTimedOut)
            throw error;
          continue;
        }
        if (result === undefined) continue;
        if (isTerminal(result)) return result;
        accumulator.apply(result);
      }
      return accumulator.result;
    };
  },
  example: {
    type: "chain",
    stop_on_failure: false,
    actions: [
      { type: "log", message: "Edit detected on turn {turn}" },
      { type: "notify", title: "Edit", message: "{{tool.fqn}} changed {{tool.params.path}}" },
    ],
  },
});
