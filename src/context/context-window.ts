/**
 * Context windows (in tokens) of common models, for token accounting when the config or
 * the agent does not say (`models.<name>.context_window`, `createAgent({ contextWindow })`).
 * Matched on the model id's last path segment (`openai/gpt-4o` and `models/gemini-2.0-flash`
 * work too); the first matching prefix wins, so longer prefixes come first.
 */

export const DEFAULT_CONTEXT_WINDOW = 128_000;

const KNOWN: readonly (readonly [prefix: string, window: number])[] = [
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-5", 400_000],
  ["gpt-3.5-turbo", 16_385],
  ["o1-mini", 128_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  ["claude-", 200_000],
  ["gemini-", 1_048_576],
];

/**
 * The context window for a model id: `configured` when given (a positive number), else the
 * known window of the id's family, else 128 000.
 */
export function contextWindowFor(modelId: string | undefined, configured?: number): number {
  if (configured !== undefined && configured > 0) return configured;
  if (!modelId) return DEFAULT_CONTEXT_WINDOW;
  const id = modelId.slice(modelId.lastIndexOf("/") + 1).toLowerCase();
  for (const [prefix, window] of KNOWN) if (id.startsWith(prefix)) return window;
  return DEFAULT_CONTEXT_WINDOW;
}
