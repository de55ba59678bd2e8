/**
 * Positions in an OpenAPI document's YAML/JSON source: the line and column of a path
 * (deepest node that exists), and the path of the node at an offset. Validation problems
 * are found on the parsed object; these map them back to where the user wrote them.
 */
import type { Document, LineCounter, Node, Pair } from "yaml";
import { yaml } from "../../../deps/yaml.js";

export type DocumentPath = (string | number)[];

function keyOf(pair: Pair): unknown {
  return yaml().isScalar(pair.key) ? pair.key.value : pair.key;
}

export function positionAt(
  document: Document.Parsed,
  lines: LineCounter,
  path: readonly (string | number)[],
): { line: number; column: number } {
  let node: unknown = document.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (const segment of path) {
    if (yaml().isMap(node)) {
      const pair = (node.items as Pair[]).find((item) => String(keyOf(item)) === String(segment));
      if (!pair) break;
      node = pair.value;
      offset = (node as Node | null)?.range?.[0] ?? (pair.key as Node | null)?.range?.[0] ?? offset;
    } else if (yaml().isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      if (!node) break;
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

/** The path of the deepest node whose range holds `offset` (a key counts as its value's place). */
export function pathAtOffset(document: Document.Parsed, offset: number): DocumentPath {
  const path: DocumentPath = [];
  let node: unknown = document.contents;
  for (;;) {
    if (yaml().isMap(node)) {
      const pair = (node.items as Pair[]).find((item) => {
        const start = (item.key as Node | null)?.range?.[0] ?? Number.POSITIVE_INFINITY;
        const end = (item.value as Node | null)?.range?.[2] ?? (item.key as Node | null)?.range?.[2] ?? -1;
        return start <= offset && offset <= end;
      });
      if (!pair) return path;
      path.push(String(keyOf(pair)));
      node = pair.value;
    } else if (yaml().isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const range = (item as Node | null)?.range;
        return range != null && range[0] <= offset && offset <= range[2];
      });
      if (index < 0) return path;
      path.push(index);
      node = node.items[index];
    } else {
      return path;
    }
  }
}
