/**
 * Token estimates, used when the provider reported no usage. By default a small heuristic
 * estimator (tokenx: within a few percent of real tokenizers on prose and code, no
 * vocabulary to load); `useExactTokenizer()` switches to a real tokenizer (gpt-tokenizer,
 * o200k_base, the encoding of GPT-4o and later), an optional package. Messages are
 * immutable once committed, so each one is counted once (cached by object identity).
 */
import { lazy, loadPackage } from "../deps/load-package.js";
import { importOptional } from "../errors/optional-package.js";
import type { ModelMessage } from "../events/payloads.js";

/** How text becomes a token count, and how text is cut to a number of tokens. */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
  /** `text` cut to at most `maxTokens` tokens (a prefix of it). */
  clip(text: string, maxTokens: number): string;
}

/** tokenx, loaded when the first text is counted. */
const tokenx = lazy(() => loadPackage<typeof import("tokenx")>("tokenx"));

/** The default: tokenx's estimate. */
export const estimatingTokenizer: Tokenizer = {
  name: "estimate",
  count: (text) => tokenx().estimateTokenCount(text),
  clip: (text, maxTokens) => tokenx().sliceByTokens(text, 0, Math.max(maxTokens, 0)),
};

let tokenizer: Tokenizer = estimatingTokenizer;

/** Per-message framing (role, separators) that chat formats add around the content. */
const MESSAGE_OVERHEAD = 4;
/** Special tokens (`<|endoftext|>`) inside user text are counted as text, never rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let cache = new WeakMap<object, number>();

/** Counts tokens with `next` from now on, in this process (`estimatingTokenizer` restores the default). */
export function setTokenizer(next: Tokenizer): void {
  tokenizer = next;
  cache = new WeakMap();
}

/**
 * Counts tokens with a real tokenizer (o200k_base) from now on, in this process. Needs the
 * optional package gpt-tokenizer (`npm install gpt-tokenizer`).
 */
export async function useExactTokenizer(): Promise<Tokenizer> {
  const { countTokens, decode, encode } = await importOptional<typeof import("gpt-tokenizer")>(
    "gpt-tokenizer",
    "The exact tokenizer",
  );
  const exact: Tokenizer = {
    name: "o200k_base",
    count: (text) => countTokens(text, AS_TEXT),
    clip: (text, maxTokens) => decode(encode(text, AS_TEXT).slice(0, Math.max(maxTokens, 0))),
  };
  setTokenizer(exact);
  return exact;
}

export function countTextTokens(text: string): number {
  return text ? tokenizer.count(text) : 0;
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
  return tokenizer.clip(text, maxTokens);
}
