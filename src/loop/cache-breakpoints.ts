/**
 * Prompt-cache breakpoints, for providers that want them marked (Anthropic, directly or on
 * Vertex; Claude on Bedrock). OpenAI and Gemini cache a repeated prefix on their own: nothing
 * to mark there.
 *
 * The mark goes on the last part of the *stable* prefix: the messages of the transcript as
 * they are, before anything an attempt added for itself (per-attempt context, feedback).
 * The next step sends the same bytes up to there, so it reads them from the cache. A long
 * system prompt gets a mark of its own, so a step whose history changed (a compaction)
 * still reads the system prompt and tools from the cache. Two marks: within every
 * provider's limit (Anthropic: four), leaving room for a caller's own.
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ModelMessage } from "../events/payloads.js";
import type { LanguageModel } from "../models/language-model.js";

export type CacheBreakpoints = "auto" | "off";

/** How a provider spells a breakpoint in a part's `providerOptions`. */
type Mark = Record<string, Record<string, unknown>>;

const ANTHROPIC: Mark = Object.freeze({
  anthropic: Object.freeze({ cacheControl: Object.freeze({ type: "ephemeral" }) }),
});
const BEDROCK: Mark = Object.freeze({
  bedrock: Object.freeze({ cachePoint: Object.freeze({ type: "default" }) }),
});

/**
 * Below this many characters (about 1,024 tokens, the smallest prefix Anthropic caches) a
 * system prompt is not worth a breakpoint of its own.
 */
const LARGE_SYSTEM_CHARS = 4_000;

/** Each model's mark, read once per provider and model id (asked at every step). */
const marks = new WeakMap<LanguageModel, { provider: string; modelId: string; mark: Mark | undefined }>();

/** The mark a model's provider takes, or undefined when it caches without marks. */
export function breakpointMark(model: LanguageModel): Mark | undefined {
  const known = marks.get(model);
  if (known !== undefined && known.provider === model.provider && known.modelId === model.modelId)
    return known.mark;
  const mark = markOf(model);
  marks.set(model, { provider: model.provider, modelId: model.modelId, mark });
  return mark;
}

function markOf(model: LanguageModel): Mark | undefined {
  const provider = model.provider.toLowerCase();
  if (provider.includes("anthropic")) return ANTHROPIC;
  if (provider.includes("bedrock") && /anthropic|claude/i.test(model.modelId)) return BEDROCK;
  return undefined;
}

/**
 * How many leading messages of `sent` are the transcript's own (`baseline`), untouched; and
 * when the next one is a baseline user message with parts added after its own, how many
 * parts of it are its own.
 */
export function stablePrefix(
  sent: readonly ModelMessage[],
  baseline: readonly ModelMessage[],
): { messages: number; ownParts: number } {
  const shorter = Math.min(sent.length, baseline.length);
  let index = 0;
  while (index < shorter && sent[index] === baseline[index]) index++;
  const original = baseline[index];
  const copy = sent[index];
  if (index < shorter && original?.role === "user" && copy?.role === "user") {
    const own = typeof original.content === "string" ? (original.content ? 1 : 0) : original.content.length;
    const now = typeof copy.content === "string" ? 1 : copy.content.length;
    if (own > 0 && now > own) return { messages: index, ownParts: own };
  }
  return { messages: index, ownParts: 0 };
}

function withMark<T extends { providerOptions?: unknown }>(item: T, mark: Mark): T {
  const own = (item.providerOptions ?? {}) as Mark;
  const merged: Mark = { ...own };
  for (const [key, value] of Object.entries(mark)) merged[key] = { ...(own[key] ?? {}), ...value };
  return { ...item, providerOptions: merged };
}

function markLastPart(
  message: LanguageModelV3Message,
  mark: Mark,
  partIndex?: number,
): LanguageModelV3Message {
  if (message.role === "system") return withMark(message, mark);
  const content = message.content as { providerOptions?: unknown }[];
  const at = partIndex ?? content.length - 1;
  if (at < 0 || at >= content.length) return message;
  const parts = content.slice();
  parts[at] = withMark(parts[at]!, mark);
  return { ...message, content: parts } as LanguageModelV3Message;
}

/**
 * A copy of `prompt` with breakpoints (the prompt is shared with later steps: never
 * changed in place). `hasSystem`: the prompt starts with the system message.
 */
export function markBreakpoints(
  prompt: LanguageModelV3Prompt,
  mark: Mark,
  stable: { messages: number; ownParts: number },
  hasSystem: boolean,
): LanguageModelV3Prompt {
  const offset = hasSystem ? 1 : 0;
  const marked = prompt.slice();
  let target: number | undefined;
  let part: number | undefined;
  if (stable.ownParts > 0) {
    // The transcript's user message with this attempt's text after it: mark its own last part.
    target = offset + stable.messages;
    part = stable.ownParts - 1;
  } else if (stable.messages > 0) target = offset + stable.messages - 1;
  if (target !== undefined && marked[target]) marked[target] = markLastPart(marked[target]!, mark, part);
  if (hasSystem) {
    const system = marked[0]!;
    const large = system.role === "system" && system.content.length >= LARGE_SYSTEM_CHARS;
    if (large && target !== 0) marked[0] = markLastPart(system, mark);
  }
  return marked;
}
