import type { ModelMessage, ToolChoice } from "../events/payloads.js";

/**
 * A `model_request` hook's change to one attempt's outbound copy. Never
 * written to the transcript. Merge rules across hooks live in `merge-request-patch.ts`.
 */
export interface RequestPatch {
  /** Appended, in hook order, to the outbound copy's last user message as context blocks. */
  extraContext?: Array<string | { id?: string; text: string }>;
  /** Appended, in hook order, to the run's user message (outbound copy only). */
  appendToUserMessage?: string;
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
