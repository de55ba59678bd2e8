/**
 * Replaces secrets in text and in values. Every spelling of each secret (secret-forms.ts),
 * in any case, is found, overlapping finds are joined, and each stretch is replaced by one
 * marker: when one secret contains another, or two overlap, nothing of either is left.
 * Values are copied where they change (strings, lists, plain objects and their keys); an
 * error is masked in place (its class, and what code checks on it, must stay).
 */
import { secretForms } from "./secret-forms.js";

export interface SecretMasker {
  /** `text` with every secret replaced by its marker. */
  text(text: string): string;
  /** `value` with every string in it, object keys included, masked; the parts that did not change are shared. */
  value<T>(value: T): T;
  /** Every spelling masked, lower-cased: a text streamed in pieces holds back an end that could begin one. */
  readonly forms: readonly string[];
}

export interface Secret {
  readonly value: string;
  /** Named in the marker: `[redacted NAME]`; without one the marker is `[redacted]`. */
  readonly name?: string | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

const NONE: SecretMasker = Object.freeze({
  text: (text: string) => text,
  value: <T>(value: T) => value,
  forms: [],
});

export function secretMasker(secrets: Iterable<Secret>): SecretMasker {
  const markers = new Map<string, string>();
  for (const secret of secrets) {
    if (secret.value === "") continue;
    const marker = secret.name === undefined ? "[redacted]" : `[redacted ${secret.name}]`;
    for (const form of secretForms(secret.value)) {
      const key = form.toLowerCase();
      if (!markers.has(key)) markers.set(key, marker);
    }
  }
  if (markers.size === 0) return NONE;
  const forms = [...markers.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map(escapeRegExp).join("|"), "gi");
  const text = (value: string): string => maskText(value, pattern, markers);
  const value = <T>(item: T): T => maskValue(item, text, new Set()) as T;
  return { text, value, forms };
}

function maskText(text: string, pattern: RegExp, markers: ReadonlyMap<string, string>): string {
  pattern.lastIndex = 0;
  let match = pattern.exec(text);
  if (match === null) return text;
  let out = "";
  let copied = 0;
  let start = match.index;
  let end = start + match[0].length;
  let marker = markers.get(match[0].toLowerCase()) ?? "[redacted]";
  const flush = () => {
    out += `${text.slice(copied, start)}${marker}`;
    copied = end;
  };
  for (;;) {
    // The next find may start inside this one (a secret within, or overlapping, another).
    pattern.lastIndex = match.index + 1;
    match = pattern.exec(text);
    if (match === null) break;
    if (match.index < end) {
      end = Math.max(end, match.index + match[0].length);
      continue;
    }
    flush();
    start = match.index;
    end = start + match[0].length;
    marker = markers.get(match[0].toLowerCase()) ?? "[redacted]";
  }
  flush();
  return out + text.slice(copied);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function maskValue(value: unknown, text: (text: string) => string, open: Set<object>): unknown {
  if (typeof value === "string") return text(value);
  if (typeof value !== "object" || value === null || open.has(value)) return value;
  if (value instanceof Error) return maskErrorInPlace(value, text, open);
  open.add(value);
  try {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const masked = maskValue(item, text, open);
        if (masked === item) return;
        copy ??= value.slice();
        copy[index] = masked;
      });
      return copy ?? value;
    }
    if (!isPlainObject(value)) return value;
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const maskedKey = text(key);
      const masked = maskValue(item, text, open);
      if (maskedKey !== key || masked !== item) changed = true;
      return [maskedKey, masked] as const;
    });
    if (!changed) return value;
    const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(value));
    for (const [key, item] of entries) copy[key] = item;
    return copy;
  } finally {
    open.delete(value);
  }
}

/** An error's message, stack, cause and own fields (a response body, headers) masked in place. */
function maskErrorInPlace(error: Error, text: (text: string) => string, open: Set<object>): Error {
  open.add(error);
  try {
    const target = error as unknown as Record<string, unknown>;
    for (const key of new Set([...Object.keys(error), "message", "stack", "cause"])) {
      const item = target[key];
      if (item === undefined || item === null) continue;
      const masked = maskValue(item, text, open);
      if (masked === item) continue;
      try {
        target[key] = masked;
      } catch {
        // A frozen error or a getter without a setter: nothing we can do in place.
      }
    }
    return error;
  } finally {
    open.delete(error);
  }
}
