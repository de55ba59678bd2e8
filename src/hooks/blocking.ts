/**
 * What a blocking dispatch takes and gives: the options a caller passes
 * (rewrite checks, the phase to run) and the outcome (the payload after chained rewrites,
 * patches, injected messages, transcript edits, a terminal answer or a failure).
 */
import type { HookError } from "../errors/hook-error.js";
import type { AnyEventPayload, ModelMessage } from "../events/payloads.js";
import type { Flow, MessageEdit } from "./flow.js";
import type { HookSelection, RegisteredHook } from "./hook-registry.js";
import type { NamedPatch } from "./merge-request-patch.js";

export type Validate = (value: unknown) => { ok: true; value: unknown } | { ok: false; message: string };

export interface BlockingOptions {
  /** `tool_call`: rewritten args are validated against the tool's input schema (fail closed). */
  validateArgs?: Validate;
  /** `tool_result`: rewritten results are validated against the tool's output schema, if any. */
  validateResult?: Validate;
  /** Run only the selection's transforms, or only its decides (`model_request` runs them apart). */
  phase?: "transforms" | "decides";
}

export const NO_HOOKS: readonly RegisteredHook[] = Object.freeze([]);

/** The selection a dispatch runs: its transforms and decides, or one of them (`phase`). */
export function phased(selection: HookSelection, phase: BlockingOptions["phase"]): HookSelection {
  if (phase === undefined) return selection;
  return {
    transforms: phase === "transforms" ? selection.transforms : NO_HOOKS,
    decides: phase === "decides" ? selection.decides : NO_HOOKS,
    inspects: NO_HOOKS,
    observers: NO_HOOKS,
  };
}

export interface BlockingOutcome<P extends AnyEventPayload> {
  /** The payload after chained rewrites (`original` set when args or result changed). */
  payload: P;
  patches: NamedPatch[];
  injected: ModelMessage[];
  /** Transcript edits (`flow.replaceMessages`, `flow.compact`), in hook order; the loop applies them. */
  edits: { hook: string; edit: MessageEdit }[];
  /** A terminal answer: skip, terminate, retry, repair, fallback, deny, ask, or an approval answer. */
  terminal?: { flow: Flow; hook: string };
  /** A blocking hook failed closed. */
  failure?: HookError;
}

export const NO_OPTIONS: BlockingOptions = Object.freeze({});
