/** One loop event through its blocking hooks, and what ends the run when they stop it. */
import type { AnyEventPayload } from "../events/payloads.js";
import type { BlockingOutcome } from "../hooks/blocking.js";
import type { HookContext } from "../hooks/hook-context.js";
import type { HookSelection } from "../hooks/hook-registry.js";
import { contextFor, type RunState } from "./run-state.js";
import type { RunEnd } from "./types.js";

export interface Dispatch<P extends AnyEventPayload> {
  context: HookContext;
  selection: HookSelection;
  /** Synchronous while every hook answered synchronously (no await on the common path). */
  outcome: BlockingOutcome<P> | Promise<BlockingOutcome<P>>;
}

export function dispatchEvent<P extends AnyEventPayload>(
  state: RunState,
  event: P,
  type: P["type"],
): Dispatch<P> {
  const context = contextFor(state);
  const selection = state.runner.select(event, type);
  return { context, selection, outcome: state.runner.dispatch(event, context, selection) };
}

/** The run's end when the hooks stopped it (a failure, terminate or deny); undefined to go on. */
export function stopOf(outcome: BlockingOutcome<AnyEventPayload>, text: string): RunEnd | undefined {
  if (outcome.failure) {
    const { failure } = outcome;
    return { outcome: "error", text, reason: failure.message, hook: failure.hook, error: failure };
  }
  const flow = outcome.terminal?.flow;
  if (flow?.type === "terminate" || flow?.type === "deny") {
    return { outcome: "terminated", text, reason: flow.reason, hook: outcome.terminal!.hook };
  }
  return undefined;
}
