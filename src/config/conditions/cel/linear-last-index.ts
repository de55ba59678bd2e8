/**
 * CEL's `lastIndexOf` on JavaScript's `String.prototype.lastIndexOf` searches backwards
 * naively: its time grows with the text's length times the search's, so
 * `args.text.lastIndexOf(args.needle)` with a text and a needle of a few hundred KB the model
 * chose blocks the process for minutes, outside any comprehension the step budget counts.
 * hookwise renames the call in the expression's text (to a name of the same length, so every
 * position stays where it was) to a search in linear time: a long search runs forwards
 * (`indexOf`, linear) over both strings reversed.
 */

export const LAST_INDEX = "lastIndexOf";
/** What `lastIndexOf` is renamed to: as long as "lastIndexOf", so offsets do not move. */
export const LINEAR_LAST_INDEX = "lastIndexLn";
/** Up to this length, the backward search costs at most this many steps per character. */
const SHORT = 32;

function reversed(text: string): string {
  // By UTF-16 unit, as both strings are: indices stay those of the text.
  let out = "";
  for (let index = text.length - 1; index >= 0; index--) out += text[index];
  return out;
}

/** `text.lastIndexOf(search, fromIndex)` (UTF-16 indices, as the CEL engine's), in linear time. */
export function lastIndexLinear(text: string, search: string, fromIndex = text.length): number {
  if (search.length <= SHORT) return text.lastIndexOf(search, fromIndex);
  // A match starts at fromIndex at the latest: it ends by fromIndex + search.length.
  const end = Math.min(text.length, fromIndex + search.length);
  if (search.length > end) return -1;
  const at = reversed(text.slice(0, end)).indexOf(reversed(search));
  return at === -1 ? -1 : end - at - search.length;
}

/** CEL's `string.lastIndexOf(string, int)`: an empty search answers fromIndex; it must be in the text. */
export function lastIndexFrom(text: string, search: string, fromIndex: bigint): bigint {
  if (search === "") return fromIndex;
  const from = Number(fromIndex);
  if (from < 0 || from >= text.length)
    throw new Error(`string.${LAST_INDEX}(search, fromIndex): fromIndex out of range`);
  return BigInt(lastIndexLinear(text, search, from));
}
