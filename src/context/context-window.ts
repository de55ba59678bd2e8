/**
 * Context windows (in tokens) of common models, for token accounting when the config or
 * the agent does not say (`models.<name>.context_window`, `createAgent({ contextWindow })`).
 * Matched on the model id's last path segment (`openai/gpt-4o` and `models/gemini-2.0-flash`
 * work too); the most specific (longest) matching prefix wins, so `gpt-4-32k` is not `gpt-4`.
 */

export const DEFAULT_CONTEXT_WINDOW = 128_000;

const KNOWN: readonly (readonly [prefix: string, window: number])[] = [
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4-1106", 128_000],
  ["gpt-4-0125", 128_000],
  ["gpt-4-vision", 128_000],
  ["gpt-4-32k", 32_768],
  ["gpt-4.5", 128_000],
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
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN) {
    if (id.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : DEFAULT_CONTEXT_WINDOW;
}
