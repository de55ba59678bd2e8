import type { ModelMessage, ToolChoice } from "../events/payloads.js";

/**
 * Where a patch's added text goes in the outbound copy:
 * - `end` (default): after the last message (appended to it when it is a user message, else
 *   as a new user message). Everything before it is the same bytes as the previous step's
 *   request, so the provider's prompt cache keeps serving the whole history.
 * - `user_message`: into the user message (the run's, for `appendToUserMessage`; the last
 *   one, for `extraContext`). In a tool loop that message comes early: text that changes
 *   per step there makes the provider re-read everything after it at full price.
 * - `system`: appended to the system prompt. Text that changes per step there defeats the
 *   prompt cache for the whole request.
 */
export type ContextPlacement = "end" | "user_message" | "system";

export const CONTEXT_PLACEMENTS: readonly ContextPlacement[] = ["end", "user_message", "system"];

/**
 * A `model_request` hook's change to one attempt's outbound copy. Never
 * written to the transcript. Merge rules across hooks live in `merge-request-patch.ts`.
 */
export interface RequestPatch {
  /**
   * Context blocks added to this attempt's outbound copy, in hook order, where `placement`
   * says (default: after the last message; an item's own `placement` wins).
   */
  extraContext?: Array<string | { id?: string; text: string; placement?: ContextPlacement }>;
  /** Text added to the user's input for this attempt, in hook order, where `placement` says. */
  appendToUserMessage?: string;
  /** Where this patch's `extraContext` and `appendToUserMessage` go (default `end`). */
  placement?: ContextPlacement;
  /** Replaces the system prompt. Last writer wins (a warning names both hooks). */
  system?: string;
  /** Replaces the history sent (e.g. compaction). Last writer wins (a warning names both hooks). */
  messages?: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  seed?: number;
  stopSequences?: string[];
  toolChoice?: ToolChoice;
  /** Deep-merged; later hooks win per key. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** An allow-list of function or qualified names; patches intersect. */
  activeTools?: string[];
}
