/**
 * Converts a JS value for CEL: CEL's `int` is a BigInt, so integral numbers become BigInt
 * (`args.count + 1`, `turn % 5 == 0` type-check), other numbers stay doubles; `undefined`
 * fields are dropped (so `has(tool.result)` is false), `undefined` itself and cycles are
 * `null`, dates are ISO strings.
 */
export function toCelValue(value: unknown, ancestors: WeakSet<object> = new WeakSet()): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? null : value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.toISOString();
  if (ancestors.has(value)) return null;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => toCelValue(item, ancestors));
    if (value instanceof Map) {
      return new Map([...value].map(([key, item]) => [key, toCelValue(item, ancestors)]));
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toCelValue(item, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
