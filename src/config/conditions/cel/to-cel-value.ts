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
  if (typeof value === "object" && value !== null) {
    // Most arguments need nothing converted (texts, flags, lists of them): given as they are,
    // charged their items all the same. Anything else is converted into a copy.
    const items = readyItems(value, 0, 0);
    if (items >= 0) {
      if (items > 0) charge(items);
      return value;
    }
  }
  return convert(value, [], charge);
}

/** Past this many items a value is converted item by item (and charged as it goes), not checked first. */
const READY_ITEMS = 1024;

/**
 * How many items `value` (a plain object or list, `depth` levels down) and everything in it
 * hold, when it is already what `convert` would make of it: texts, booleans, non-integral
 * numbers, plain objects and lists of them, no `undefined` field, no hole, no integer (CEL
 * reads those as BigInt), fewer than `READY_ITEMS` items in all; -1 when it is not. `counted`:
 * the items counted so far. A cycle goes past the depth limit, so it is never ready. Values
 * a program built may hold getters, which the engine then reads again; arguments a model or
 * a harness sent, parsed JSON, have none.
 */
function readyItems(value: object, depth: number, counted: number): number {
  if (depth >= MAX_CEL_DEPTH) return -1;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return -1;
    for (let index = 0; index < value.length; index++) {
      if (!(index in value) || ++counted > READY_ITEMS) return -1;
      counted = readyItem(value[index], depth, counted);
      if (counted < 0) return -1;
    }
    return counted;
  }
  if (prototype !== Object.prototype) return -1;
  for (const key in value) {
    // `__proto__` as a key of its own (JSON can write one) is not copied as it is.
    if (key === "__proto__" || !Object.hasOwn(value, key)) return -1;
    if (++counted > READY_ITEMS) return -1;
    counted = readyItem((value as Record<string, unknown>)[key], depth, counted);
    if (counted < 0) return -1;
  }
  return counted;
}

function readyItem(item: unknown, depth: number, counted: number): number {
  switch (typeof item) {
    case "string":
    case "boolean":
      return counted;
    case "number":
      return Number.isSafeInteger(item) ? -1 : counted;
    case "object":
      return item === null ? counted : readyItems(item, depth + 1, counted);
    default:
      return -1;
  }
}

/**
 * `ancestors`: the objects being converted around this one, outermost first (its length is
 * the depth). A list, not a set: at most `MAX_CEL_DEPTH` long, and nothing is allocated for
 * a value with no object inside.
 */
function convert(value: unknown, ancestors: object[], charge: (items: number) => void): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? null : value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.toISOString();
  if (ancestors.includes(value)) return null;
  if (ancestors.length >= MAX_CEL_DEPTH)
    throw new CelDepthError(
      `a value nests more than ${MAX_CEL_DEPTH} levels deep; an expression reads values at most ${MAX_CEL_DEPTH} levels deep (bound the depth in the tool's input schema)`,
    );
  ancestors.push(value);
  try {
    // Each item is charged as it is converted: the clock is read while a long one converts.
    if (Array.isArray(value)) {
      const out = new Array(value.length);
      for (let index = 0; index < value.length; index++) {
        // A hole stays a hole (as `map` leaves it), uncharged.
        if (!(index in value)) continue;
        charge(1);
        out[index] = convert(value[index], ancestors, charge);
      }
      return out;
    }
    if (value instanceof Map) {
      const out = new Map();
      for (const [key, item] of value) {
        charge(1);
        out.set(key, convert(item, ancestors, charge));
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      charge(1);
      out[key] = convert(item, ancestors, charge);
    }
    return out;
  } finally {
    ancestors.pop();
  }
}
