/**
 * JSON text for values a store persists. Plain JSON would turn the bytes of an image or
 * file part (`Uint8Array`, `ArrayBuffer`, `Buffer`) into an object of numbered keys, and a
 * `URL` into a bare string, so those are written as tagged objects and revived as
 * `Uint8Array` and `URL`. Everything else follows JSON: `undefined` properties are
 * dropped, `Date` becomes its ISO string, functions and symbols are not storable.
 *
 * Only a value that holds bytes or a URL pays for them: the tagging replacer (a call per
 * node) runs only when a walk of the value found one, and the reviving reviver only when
 * the text holds a tag. Everything else is plain `JSON.stringify` / `JSON.parse`. A value
 * whose maker knows where bytes could be (a run's record: only in what tools and hooks gave)
 * is encoded by it once (`encodeOnce`), looking only there; a store's `encodeJson` of that
 * value then takes the text as it is, with no walk and no second `JSON.stringify`.
 */

const tag = "$hookwise";

type Tagged = { [tag]: "bytes"; base64: string } | { [tag]: "url"; href: string };

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `this[key]` is the value before `toJSON` ran (Buffer and URL both define one).
  const raw = this[key];
  if (raw instanceof Uint8Array) return { [tag]: "bytes", base64: Buffer.from(raw).toString("base64") };
  if (raw instanceof ArrayBuffer) return { [tag]: "bytes", base64: Buffer.from(raw).toString("base64") };
  if (raw instanceof URL) return { [tag]: "url", href: raw.href };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || !(tag in value)) return value;
  const tagged = value as Tagged;
  if (tagged[tag] === "bytes") return new Uint8Array(Buffer.from(tagged.base64, "base64"));
  if (tagged[tag] === "url") return new URL(tagged.href);
  return value;
}

/** Deeper than this, the walk leaves the value to the replacer (which also reports a cycle). */
const MAX_DEPTH = 200;

/**
 * Whether `value` (an object) needs the replacer: it holds bytes or a URL, or something whose
 * JSON the walk cannot foresee (a `toJSON` other than Date's may return bytes), or nests
 * deeper than `MAX_DEPTH` (a cycle does). Reads what `JSON.stringify` reads: own enumerable
 * properties. Primitives are skipped without a call: this walk runs for every value stored.
 */
function needsTags(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === "object" && item !== null && needsTags(item, depth + 1)) return true;
    }
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof URL) return true;
    if (value instanceof Date) return false;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return true;
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (
      typeof child === "object" &&
      child !== null &&
      Object.hasOwn(value, key) &&
      needsTags(child, depth + 1)
    )
      return true;
  }
  return false;
}

/** Whether `value` holds bytes or a URL (or something whose JSON cannot be foreseen): the walk `encodeJson` makes. */
export function holdsTags(value: object): boolean {
  return needsTags(value, 0);
}

/**
 * The text of a value encoded by its maker (`encodeOnce`), kept on the value itself: a
 * non-enumerable symbol property, which JSON, spreads, `structuredClone` and `Object.keys`
 * leave out. Not in a `WeakMap`: V8's young-generation collector keeps a weak map's values
 * alive even when their key (young too) is dead, so a record's text that outlived one
 * collection while its run went on would outlive the next as well, promoted to the old
 * generation, to be freed only by a full collection.
 */
const ENCODED = Symbol("hookwise.encoded");

/**
 * Encodes `value` now, with the tagging replacer only when `tagged` (its maker looked through
 * every part of it that could hold bytes or a URL: `holdsTags`), and keeps the text:
 * `encodeJson` of this same object returns it. The caller changes `value` no more.
 */
export function encodeOnce(value: object, tagged: boolean): string {
  const text = tagged ? JSON.stringify(value, replacer) : JSON.stringify(value);
  Object.defineProperty(value, ENCODED, { value: text, configurable: true });
  return text;
}

/** The text `encodeOnce` kept for `value`: its own property only (not one a prototype holds). */
function encodedText(value: object): string | undefined {
  const text = (value as { [ENCODED]?: string })[ENCODED];
  return text !== undefined && Object.hasOwn(value, ENCODED) ? text : undefined;
}

/** `undefined` for `undefined` (JSON has no text for it; the SQLite store keeps it as SQL NULL). */
export function encodeJson(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  return (
    encodedText(value) ?? (needsTags(value, 0) ? JSON.stringify(value, replacer) : JSON.stringify(value))
  );
}

/**
 * A text can hold a tag only as the key `"$hookwise"`, or spelled with a `\u` escape (JSON
 * allows one in any key; this codec never writes one, a hand-edited value may).
 */
function mayHoldTags(text: string): boolean {
  return text.includes(`"${tag}"`) || text.includes("\\u");
}

export function decodeJson(text: string): unknown {
  return mayHoldTags(text) ? JSON.parse(text, reviver) : JSON.parse(text);
}
