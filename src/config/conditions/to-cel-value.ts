/**
 * Converts a JS value for CEL: CEL's `int` is a BigInt, so integral numbers become BigInt
 * (`args.count + 1`, `turn % 5 == 0` type-check), other numbers stay doubles; `undefined`
 * fields are dropped (so `has(tool.result)` is false), `undefined` itself and cycles are
 * `null`, dates are ISO strings.
 *
 * `charge` is told each item of a list or map converted (the evaluation's budget, which
 * throws once spent), and a value nested deeper than `MAX_CEL_DEPTH` is refused: the engine
 * works out the type of a nested value by writing it out in full at each level it reads, so
 * `args.a.a.a == args.a.a.a` over 3,000 levels took seconds in one operation no budget sees.
 */
export const MAX_CEL_DEPTH = 64;

export class CelDepthError extends Error {}

export function toCelValue(value: unknown, charge: (items: number) => void = () => {}): unknown {
  return convert(value, new WeakSet(), charge, 0);
}

function convert(
  value: unknown,
  ancestors: WeakSet<object>,
  charge: (items: number) => void,
  depth: number,
): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? null : value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.toISOString();
  if (ancestors.has(value)) return null;
  if (depth >= MAX_CEL_DEPTH)
    throw new CelDepthError(
      `a value nests more than ${MAX_CEL_DEPTH} levels deep; an expression reads values at most ${MAX_CEL_DEPTH} levels deep (bound the depth in the tool's input schema)`,
    );
  ancestors.add(value);
  try {
    // Each item is charged as it is converted: the clock is read while a long one converts.
    const inner = (item: unknown) => {
      charge(1);
      return convert(item, ancestors, charge, depth + 1);
    };
    if (Array.isArray(value)) return value.map(inner);
    if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, inner(item)]));
    const entries = Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      if (item !== undefined) out[key] = inner(item);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
