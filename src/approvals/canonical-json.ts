/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` dropped, BigInt as its
 * decimal string, bytes as base64. Two values that mean the same arguments give the same
 * text whatever their key order, so an approval's binding hash is stable across processes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value, new WeakSet())) ?? "null";
}

function normalize(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) throw new TypeError("canonicalJson: a circular value has no canonical form");
  seen.add(value);
  try {
    if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
    if (Array.isArray(value)) return value.map((item) => normalize(item, seen) ?? null);
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === "function") return normalize(withJson.toJSON(), seen);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = normalize((value as Record<string, unknown>)[key], seen);
      if (item !== undefined) out[key] = item;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
