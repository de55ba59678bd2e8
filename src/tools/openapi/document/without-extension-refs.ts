/**
 * The document without the vendor extensions (`x-…`) that hold a `$ref`: the toolset reads
 * no extension, and such a `$ref` often points where a loader cannot follow (a Markdown
 * page of `x-topics`, a file not shipped with the document), which would stop the whole
 * document from loading. Maps whose keys are names chosen by the document's author
 * (properties, components, headers…) are kept whole: a key there is a name, not an extension.
 */

const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "schemas",
  "headers",
  "parameters",
  "responses",
  "examples",
  "requestBodies",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "encoding",
]);

function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, item]) => key === "$ref" || holdsRef(item));
}

export function withoutExtensionRefs(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutExtensionRefs(item));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!names && key.startsWith("x-") && holdsRef(item)) continue;
    out[key] = withoutExtensionRefs(item, !names && NAME_MAPS.has(key));
  }
  return out;
}
