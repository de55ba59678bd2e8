/** `defineHook`: a typed hook definition. */
import type { EventName, HookKind } from "../events/catalogue.js";
import type { EventPayload } from "../events/payloads.js";
import type { HookContext } from "./hook-context.js";
import type { HookResult } from "./hook-result.js";
import type { ArgsEvent, ToolArgs } from "./tool-args.js";

/** A hook's event: the payload, with `args` typed as `ARGS` on the events that carry a call's arguments. */
export type HookEvent<E extends EventName, ARGS = unknown> = unknown extends ARGS
  ? EventPayload<E>
  : E extends ArgsEvent
    ? Omit<EventPayload<E>, "args"> & { args: ARGS }
    : EventPayload<E>;

/**
 * `ARGS` types `event.args` (tool events only); `unknown` unless the hook's `match` names one
 * tool whose schema is known (see `defineHook`).
 */
export interface HookDefinition<
  E extends EventName = EventName,
  K extends HookKind = HookKind,
  ARGS = unknown,
> {
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
  handler(event: HookEvent<E, ARGS>, context: HookContext): HookResult<E, K> | Promise<HookResult<E, K>>;
}

/**
 * A hook for an agent whose tools are `TOOLS`: what `agent.use()` takes. `defineHook` reads the
 * tools from it to type `event.args`; `~tools` exists in the type only (nothing is stored).
 */
export type AgentHook<TOOLS = unknown> = AnyHook & { readonly "~tools"?: TOOLS };

/** Any hook, whatever its event: what registries and agents hold. */
export type AnyHook = { [E in EventName]: HookDefinition<E, HookKind> }[EventName];

/**
 * A typed hook. Where the agent's tools are known — `agent.use(defineHook({ … }))` — a hook
 * whose `match` names one tool (`match: "read_file"`) gets `event.args` typed from that
 * tool's schema (its `tool()` / AI SDK `tool()` input, or its zod `inputSchema`); otherwise
 * `event.args` is `unknown`.
 */
export function defineHook<
  E extends EventName,
  K extends HookKind,
  const M extends string = string,
  TOOLS = never,
>(
  definition: HookDefinition<E, K, ToolArgs<TOOLS, M>> & { match?: M | readonly M[] },
): HookDefinition<E, K, ToolArgs<TOOLS, M>> & { readonly "~tools"?: TOOLS } {
  return definition;
}
