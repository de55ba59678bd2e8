/** What sessions/ needs of an agent's runtime (the loop's runtime has all of it). */
import type { HookLogger } from "../hooks/hook-context.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { Scratchpad } from "../hooks/scratchpad.js";
import type { StateStore } from "../state/state-store.js";

export interface SessionRuntime {
  readonly name: string;
  readonly registry: HookRegistry;
  readonly store: StateStore;
  readonly log: HookLogger;
  /** Session scratchpads live in the process, keyed by session id. */
  readonly sessionScratch: Map<string, Scratchpad>;
}
