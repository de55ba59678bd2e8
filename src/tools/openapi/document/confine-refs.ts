/**
 * The files an OpenAPI document's external `$ref`s reach, checked before the parser reads
 * them: each is a file inside the document's own folder (symbolic links followed), and
 * every file it refers to in turn is too. A `$ref` to `../../secrets.yaml`, to an absolute
 * path elsewhere or to a URL would otherwise be read and its content put in the tools'
 * descriptions, which the model sees.
 */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { yaml } from "../../../deps/yaml.js";
import { tooDeepAt } from "../../../deps/yaml-nesting-depth.js";
import type { DocumentPath } from "./yaml-positions.js";

export interface RefProblem {
  ref: string;
  /** Where the `$ref` is in the document it was found in. */
  path: DocumentPath;
  /** That document, when it is not the spec itself. */
  file?: string;
  problem: string;
}

/** Every external `$ref` of a parsed document, with where it is. */
export function externalRefs(
  value: unknown,
  path: DocumentPath = [],
  found: { ref: string; path: DocumentPath }[] = [],
) {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) externalRefs(value[index], [...path, index], found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string" && !item.startsWith("#"))
        found.push({ ref: item, path });
      else externalRefs(item, [...path, key], found);
    }
  }
  return found;
}

/** The first `$ref` reaching outside the folder of `specFile`, or undefined when all stay in. */
export function refOutsideFolder(specFile: string, spec: unknown): RefProblem | undefined {
  const root = realpathSync(dirname(specFile));
  const seen = new Set<string>([realpathSync(specFile)]);
  const pending: { file: string; value: unknown }[] = [{ file: specFile, value: spec }];
  while (pending.length > 0) {
    const { file, value } = pending.pop()!;
    const inSpec = file === specFile;
    for (const { ref, path } of externalRefs(value)) {
      const at = { ref, path, ...(inSpec ? {} : { file }) };
      const target = ref.split("#")[0]!;
      if (target === "") continue;
      let absolute: string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (!/^file:/i.test(target)) return { ...at, problem: `$ref "${ref}" points to a URL` };
        absolute = fileURLToPath(target);
      } else absolute = resolve(dirname(file), decodeURIComponent(target));
      let real: string;
      try {
        real = realpathSync(absolute);
      } catch {
        return { ...at, problem: `$ref "${ref}" names a file that does not exist (${absolute})` };
      }
      if (!real.startsWith(root + sep))
        return { ...at, problem: `$ref "${ref}" points outside the document's folder ${root}` };
      if (seen.has(real)) continue;
      seen.add(real);
      const text = readFileSync(real, "utf8");
      if (tooDeepAt(text) !== undefined)
        return { ...at, problem: `$ref "${ref}" names a file nested too deep` };
      let parsed: unknown;
      try {
        parsed = yaml().parse(text, { maxAliasCount: 1000 });
      } catch {
        continue; // the parser reports it, at its place
      }
      pending.push({ file: real, value: parsed });
    }
  }
  return undefined;
}
