/** `defineHook`: a typed hook definition. */
import type { EventName, HookKind } from "../events/catalogue.js";
import type { EventPayload } from "../events/payloads.js";
import type { HookContext } from "./hook-context.js";
import type { HookResult } from "./hook-result.js";

export interface HookDefinition<E extends EventName = EventName, K extends HookKind = HookKind> {
  name: string;
  on: E;
  kind: K;
  /** Tool events only: picomatch pattern(s) over the qualified and the function name. */
  match?: string | readonly string[];
  /** Lower runs first; default 100; ties keep registration order. */
  priority?: number;
  /** Default 30 000 ms. A blocking hook that times out fails closed. */
  timeoutMs?: number;
  /** `fail_open` lets the operation go on when this hook fails (logged). Default `fail_closed`. */
  onError?: "fail_closed" | "fail_open";
  /**
   * Inspect hooks on `tool_call` only: `"before"` runs the hook before the tool executes,
   * once every decide allowed the call (and an approval, if one was asked, was given);
   * the tool waits for it. It cannot change the call, and its failure is logged, never
   * blocking. Default `"after"`: with the final data, once the operation happened.
   */
  when?: "before" | "after";
  /** Where it fires: this agent and its sub-agents (`all`), only this agent, only sub-agents. */
  scope?: "all" | "self" | "children";
  handler(event: EventPayload<E>, context: HookContext): HookResult<E, K> | Promise<HookResult<E, K>>;
}

/** Any hook, whatever its event: what registries and agents hold. */
export type AnyHook = { [E in EventName]: HookDefinition<E, HookKind> }[EventName];

export function defineHook<E extends EventName, K extends HookKind>(
  definition: HookDefinition<E, K>,
): HookDefinition<E, K> {
  return definition;
}
