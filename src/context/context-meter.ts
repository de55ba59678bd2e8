/**
 * The loop's token accounting of one run (`ctx.contextWindow`). A request's size is known
 * exactly once the provider answers (its reported input tokens); what the transcript gained
 * since (the answer, tool results, injections) is estimated with the tokenizer. When the
 * transcript no longer starts with what was sent (compaction, an in-place update), the
 * report no longer describes it and the whole transcript is estimated instead.
 */
import type { ModelMessage } from "../events/payloads.js";
import type { ContextWindowUsage } from "../hooks/hook-context.js";
import { estimateTokens } from "./count-tokens.js";

export interface ContextMeterOptions {
  /** The model's context window, in tokens. */
  window: number;
  /** Tokens every request carries besides the messages (system prompt, tool specs). */
  overheadTokens: () => number;
  /**
   * The transcript measured when `tokens()` is called without messages: a function giving
   * it, or an object whose `messages` it is (read at each call; no closure needed).
   */
  transcript: (() => readonly ModelMessage[]) | { readonly messages: readonly ModelMessage[] };
}

export class ContextMeter implements ContextWindowUsage {
  readonly window: number;
  // The options' fields, kept one by one (the options object is not kept).
  readonly #overheadTokens: () => number;
  readonly #transcript: ContextMeterOptions["transcript"];
  #overhead: number | undefined;
  // The last report, as fields (not an object per step): the history sent is the first
  // `#observedLength` messages of `#observedSent`, which is the live transcript itself while
  // `#live` (see `observedAsPrefix`).
  #observedSent: readonly ModelMessage[] | undefined;
  #observedLength = 0;
  #observedTokens = 0;
  #live = false;

  constructor(options: ContextMeterOptions) {
    this.window = options.window;
    this.#overheadTokens = options.overheadTokens;
    this.#transcript = options.transcript;
  }

  /**
   * Records a provider's report: a request whose history was `sent` took `inputTokens`.
   * An undefined count (the provider reported none) keeps the previous observation.
   */
  observe(sent: readonly ModelMessage[], inputTokens: number | undefined): void {
    if (inputTokens === undefined || !(inputTokens > 0)) return;
    this.#observedSent = sent.slice();
    this.#observedLength = sent.length;
    this.#observedTokens = inputTokens;
    this.#live = false;
  }

  /** `observe` for a `sent` list that is already a snapshot nobody changes: kept as it is, not copied. */
  observeSnapshot(sent: readonly ModelMessage[], inputTokens: number | undefined): void {
    if (inputTokens === undefined || !(inputTokens > 0)) return;
    this.#observedSent = sent;
    this.#observedLength = sent.length;
    this.#observedTokens = inputTokens;
    this.#live = false;
  }

  /**
   * `observe` for a history that was the first `length` messages of `transcript`, which only
   * grows until `detach()`: the report reads them there.
   */
  observePrefix(transcript: readonly ModelMessage[], length: number, inputTokens: number | undefined): void {
    if (inputTokens === undefined || !(inputTokens > 0)) return;
    this.#observedSent = transcript;
    this.#observedLength = length;
    this.#observedTokens = inputTokens;
    this.#live = true;
  }

  /**
   * The last report's `sent` snapshot is the first messages of `transcript`, which only grows
   * until `detach()`: the report reads them there (the snapshot is not kept).
   */
  observedAsPrefix(sent: readonly ModelMessage[], transcript: readonly ModelMessage[]): void {
    if (this.#observedSent !== sent) return;
    this.#observedSent = transcript;
    this.#live = true;
  }

  /** Before the transcript `observedAsPrefix` named changes other than by growing: a snapshot is kept again. */
  detach(): void {
    if (!this.#live) return;
    this.#observedSent = this.#observedSent!.slice(0, this.#observedLength);
    this.#live = false;
  }

  tokens(messages: readonly ModelMessage[] = current(this.#transcript)): number {
    const sent = this.#observedSent;
    const length = this.#observedLength;
    if (sent && startsWith(messages, sent, length)) {
      return this.#observedTokens + estimateTokens(messages.slice(length));
    }
    this.#overhead ??= this.#overheadTokens();
    return this.#overhead + estimateTokens(messages);
  }

  pressure(messages?: readonly ModelMessage[]): number {
    return this.tokens(messages) / this.window;
  }
}

/**
 * The transcript a meter measures (a function, not a private method: a class with one gives
 * each instance a field of its own for it).
 */
function current(transcript: ContextMeterOptions["transcript"]): readonly ModelMessage[] {
  return typeof transcript === "function" ? transcript() : transcript.messages;
}

/** Whether `messages` begins with the first `length` messages of `prefix`. */
function startsWith(
  messages: readonly ModelMessage[],
  prefix: readonly ModelMessage[],
  length: number,
): boolean {
  if (messages.length < length) return false;
  if (messages === prefix) return true;
  for (let index = 0; index < length; index++) if (messages[index] !== prefix[index]) return false;
  return true;
}
