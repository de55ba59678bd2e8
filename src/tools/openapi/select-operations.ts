/**
 * `operations:` of an OpenAPI toolset: globs over tool names that keep an operation
 * (`invoices_*`), and `!`-globs that drop one (`!delete_*`). No keeping glob keeps every
 * operation. A glob that matches no operation is an error with the nearest name, so a
 * typo never silently exposes (or hides) a whole API.
 */
import { picomatch } from "../../deps/picomatch.js";
import { nearest } from "../../errors/nearest.js";
import { OpenApiToolsetError } from "./openapi-toolset-error.js";

export function selectOperations(
  toolset: string,
  names: readonly string[],
  patterns: readonly string[] | undefined,
): boolean[] {
  if (!patterns || patterns.length === 0) return names.map(() => true);
  const keep: picomatch.Matcher[] = [];
  const drop: picomatch.Matcher[] = [];
  patterns.forEach((pattern, index) => {
    const negated = pattern.startsWith("!");
    const glob = negated ? pattern.slice(1) : pattern;
    const test = picomatch(glob);
    if (!names.some((name) => test(name))) {
      const suggestion = nearest(glob, names);
      throw new OpenApiToolsetError({
        toolset,
        at: ["operations", index],
        problem: `"${pattern}" matches no operation`,
        expected: `a glob over the tool names (${names.slice(0, 12).join(", ")}${names.length > 12 ? ", …" : ""})`,
        ...(suggestion ? { suggestion: negated ? `!${suggestion}` : suggestion } : {}),
      });
    }
    (negated ? drop : keep).push(test);
  });
  return names.map(
    (name) => (keep.length === 0 || keep.some((test) => test(name))) && !drop.some((test) => test(name)),
  );
}
