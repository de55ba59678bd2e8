/** `defineHook`: a typed hook definition (DESIGN §3, §11). */
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
