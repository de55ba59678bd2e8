/** Maps a config path to a line and column of the YAML/JSON source (via the `yaml` CST). */
import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
} from "yaml";
import type { ConfigPath } from "./config-error.js";

export interface SourceDocument {
  document: Document.Parsed;
  lines: LineCounter;
}

export function parseSource(text: string): SourceDocument {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: true });
  return { document, lines };
}

/**
 * The position of the deepest node on `path` that exists. With `key: true` the position
 * of the last segment's key (for unknown keys) rather than its value.
 */
export function positionOf(
  source: SourceDocument,
  path: ConfigPath,
  options: { key?: boolean } = {},
): { line: number; column: number } {
  let node: unknown = source.document.contents;
  let offset = (node as Node | null)?.range?.[0] ?? 0;
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (isMap(node)) {
      const pair = (node.items as Pair[]).find(
        (item) => (isScalar(item.key) ? item.key.value : item.key) === segment,
      );
      if (!pair) break;
      const last = index === path.length - 1;
      const keyNode = pair.key as Node | null;
      if (last && options.key && keyNode?.range) {
        offset = keyNode.range[0];
        break;
      }
      node = pair.value;
      offset = (node as Node | null)?.range?.[0] ?? keyNode?.range?.[0] ?? offset;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      if (!node) break;
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  const { line, col } = source.lines.linePos(offset);
  return { line, column: col };
}
