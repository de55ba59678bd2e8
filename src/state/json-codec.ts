/**
 * JSON text for values a store persists. Plain JSON would turn the bytes of an image or
 * file part (`Uint8Array`, `ArrayBuffer`, `Buffer`) into an object of numbered keys, and a
 * `URL` into a bare string, so those are written as tagged objects and revived as
 * `Uint8Array` and `URL`. Everything else follows JSON: `undefined` properties are
 * dropped, `Date` becomes its ISO string, functions and symbols are not storable.
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

/** `undefined` for `undefined` (JSON has no text for it; the SQLite store keeps it as SQL NULL). */
export function encodeJson(value: unknown): string | undefined {
  return JSON.stringify(value, replacer);
}

export function decodeJson(text: string): unknown {
  return JSON.parse(text, reviver);
}
