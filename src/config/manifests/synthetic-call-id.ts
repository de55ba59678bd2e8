/**
 * Tool-call ids of injected pairs. The id is how an injection recognises its own earlier
 * pair in a history — even one a client sent back to a stateless server — and it carries
 * the TTL expiry:
 *
 *     hwi_<key>_<content>          hwi_<key>_t<expiry>_<content>
 *
 * `key`: a hash of the function name and arguments (the same injection); `expiry`: Unix
 * seconds; `content`: a hash of the injected result (the same content gives the same id;
 * `salt` makes it unique when an equal pair is already in the history: providers reject a
 * history where two tool calls share an id). Letters, digits and `_` only, under 40
 * characters: valid for every provider.
 */
import { nodeCrypto } from "../../deps/node-crypto.js";

const PATTERN = /^hwi_([0-9a-f]{10})(?:_t(\d+))?_([0-9a-f]{8})$/;

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function hash(text: string, length: number): string {
  return nodeCrypto().createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** Identifies one injection: the same function name with the same arguments. */
export function injectionKey(toolName: string, args: unknown): string {
  return hash(`${toolName}\u0000${stableJson(args)}`, 10);
}

export function makeSyntheticCallId(key: string, content: unknown, expiresAt?: number, salt = 0): string {
  const expiry = expiresAt === undefined ? "" : `_t${Math.floor(expiresAt)}`;
  return `hwi_${key}${expiry}_${hash(stableJson(content) + (salt ? `#${salt}` : ""), 8)}`;
}

export interface SyntheticCallId {
  key: string;
  /** Unix seconds, when the injection has a TTL. */
  expiresAt?: number;
}

export function parseSyntheticCallId(id: string): SyntheticCallId | undefined {
  const match = PATTERN.exec(id);
  if (!match) return undefined;
  return match[2] === undefined ? { key: match[1]! } : { key: match[1]!, expiresAt: Number(match[2]) };
}
