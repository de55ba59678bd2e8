import type { EventName, HookKind } from "../events/catalogue.js";

/**
 * One entry per hook that fired (`RunResult.events`): why a run went the way it did. Plain,
 * read-only data: the entry of a firing that answered nothing (`continue` / `observed`, no
 * `detail`) is one frozen object per hook, shared by all its firings.
 */
export interface HookTraceEntry {
  event: EventName;
  hook: string;
  kind: HookKind;
  /** The result type (`deny`, `patch`, …), `continue`, `observed`, or `error` / `timeout` / `aborted` / `fail_open`. */
  effect: string;
  detail?: unknown;
}
