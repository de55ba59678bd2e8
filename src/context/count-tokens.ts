/**
 * Token estimates with a real tokenizer (gpt-tokenizer, o200k_base: the encoding of GPT-4o
 * and later; other families differ by a few percent, close enough to measure pressure).
 * Used when the provider reported no usage. Messages are immutable once committed, so each
 * one is counted once (cached by object identity).
 */
import { countTokens, decode, encode } from "gpt-tokenizer";
import type { ModelMessage } from "../events/payloads.js";

/** Per-message framing (role, separators) that chat formats add around the content. */
const MESSAGE_OVERHEAD = 4;
/** Special tokens (`<|endoftext|>`) inside user text are counted as text, never rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const cache = new WeakMap<object, number>();

export function countTextTokens(text: string): number {
  return text ? countTokens(text, AS_TEXT) : 0;
}

function partText(part: unknown): string {
  if (typeof part !== "object" || part === null) return String(part ?? "");
  const value = part as Record<string, unknown>;
  switch (value.type) {
    case "text":
    case "reasoning":
      return String(value.text ?? "");
    case "tool-call":
      return `${String(value.toolName ?? "")} ${JSON.stringify(value.input ?? {})}`;
    case "tool-result": {
      const output = value.output as { type?: string; value?: unknown } | undefined;
      const inner = output?.value;
      return typeof inner === "string" ? inner : JSON.stringify(inner ?? "");
    }
    case "image":
    case "file":
      // Binary parts: providers bill them separately; count a nominal amount.
      return "[attachment]".repeat(64);
    default:
      return JSON.stringify(value);
  }
}

/** Tokens of one message, framing included. */
export function countMessageTokens(message: ModelMessage): number {
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  const content = message.content as unknown;
  const text = typeof content === "string" ? content : (content as unknown[]).map(partText).join("\n");
  const tokens = countTextTokens(text) + MESSAGE_OVERHEAD;
  cache.set(message, tokens);
  return tokens;
}

/** Estimated tokens of a list of messages. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message);
  return total;
}

/** `text` cut to at most `maxTokens` tokens (unchanged when it fits). */
export function clipToTokens(text: string, maxTokens: number): string {
  if (countTextTokens(text) <= maxTokens) return text;
  return decode(encode(text, AS_TEXT).slice(0, Math.max(maxTokens, 0)));
}
