/**
 * A copy of a value that every StateStore can keep: BigInt becomes its decimal string,
 * functions and symbols are dropped, a circular reference becomes "[Circular]". Bytes,
 * URLs and dates are kept (the stores encode them). Used for what a suspended run saves:
 * tool results, trace details and arguments may hold anything a hook or tool returned.
 */
export function storable<T>(value: T): T {
  return copy(value, new WeakSet()) as T;
}

function copy(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof URL) return value;
  if (value instanceof Date) return value.toISOString();
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => copy(item, seen) ?? null);
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === "function") return copy(withJson.toJSON(), seen);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const copied = copy(item, seen);
      if (copied !== undefined) out[key] = copied;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
