/**
 * Something that watches every hook firing as it happens, with its timing and the payload
 * it saw (telemetry uses it for one span per firing). The runner calls nothing of it when
 * none is given: a run without an observer pays one field read per hook call.
 */
import type { AnyEventPayload } from "../events/payloads.js";
import type { HookContext } from "./hook-context.js";
import type { RegisteredHook } from "./hook-registry.js";
import type { HookTraceEntry } from "./trace.js";

export interface HookObserver<Firing = unknown> {
  /**
   * A hook is about to be called with `payload`: what this returns comes back to `fired`
   * once the hook's answer is known. A hook whose own guard did not match (`NOT_FIRED`)
   * never reaches `fired`.
   */
  calling(hook: RegisteredHook, payload: AnyEventPayload, context: HookContext): Firing;
  /**
   * The hook fired: its trace entry and, for a transform whose answer was applied, the
   * payload after it (a rewrite's result; the same payload when nothing was rewritten).
   */
  fired(firing: Firing, entry: HookTraceEntry, after: AnyEventPayload | undefined): void;
}
