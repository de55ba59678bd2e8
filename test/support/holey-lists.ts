/**
 * Whether a list was made with holes (`new Array(n)` filled afterwards): V8 keeps such a list
 * "holey" once filled, and `JSON.stringify` writes a holey list element by element the slow
 * way. Asked of V8 itself (`%HasHoleyElements`, its natives syntax allowed for this process).
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--allow-natives-syntax");
const holey = new Function("list", "return %HasHoleyElements(list)") as (list: unknown[]) => boolean;

/** The paths (`$.steps[0].calls`) of every list in `value` made with holes. */
export function holeyLists(value: unknown, path = "$"): string[] {
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) {
    const found = holey(value) ? [path] : [];
    for (let index = 0; index < value.length; index++)
      found.push(...holeyLists(value[index], `${path}[${index}]`));
    return found;
  }
  return Object.entries(value).flatMap(([key, item]) => holeyLists(item, `${path}.${key}`));
}
