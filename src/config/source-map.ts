/** Maps a config path to a line and column of the YAML/JSON source (via the `yaml` CST). */
import type { Document, LineCounter, Node, Pair } from "yaml";
import { yaml } from "../deps/yaml.js";
import type { ConfigPath } from "./config-error.js";

export interface SourceDocument {
  document: Document.Parsed;
  lines: LineCounter;
}

export function parseSource(text: string): SourceDocument {
  const lines = new (yaml().LineCounter)();
  const document = yaml().parseDocument(text, {
    lineCounter: lines,
    keepSourceTokens: false,
    uniqueKeys: true,
  });
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
    if (yaml().isMap(node)) {
      const pair = (node.items as Pair[]).find(
        (item) => (yaml().isScalar(item.key) ? item.key.value : item.key) === segment,
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
    } else if (yaml().isSeq(node) && typeof segment === "number") {
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

/** At most this many alias expansions in one config (a YAML "billion laughs" stops here). */
export const MAX_ALIAS_COUNT = 100;

/**
 * The document as plain data, or the problem that stops it: an alias whose anchor is not
 * set before it (`*x` without `&x`), or aliases that expand too much (an alias bomb). The
 * problem carries the line and column of the alias it is about.
 */
export function documentData(
  source: SourceDocument,
):
  | { data: unknown; problem?: undefined }
  | { data?: undefined; problem: { message: string; line: number; column: number } } {
  const at = (offset: number | undefined) => {
    const { line, col } = source.lines.linePos(offset ?? 0);
    return { line, column: col };
  };
  let unresolved: { source: string; offset: number | undefined } | undefined;
  let firstAlias: number | undefined;
  yaml().visit(source.document, {
    Alias(_, node) {
      firstAlias ??= node.range?.[0];
      if (node.resolve(source.document) === undefined) {
        unresolved = { source: node.source, offset: node.range?.[0] };
        return yaml().visit.BREAK;
      }
      return undefined;
    },
  });
  if (unresolved) {
    return {
      problem: {
        message: `YAML alias *${unresolved.source} has no anchor &${unresolved.source} before it`,
        ...at(unresolved.offset),
      },
    };
  }
  try {
    return { data: source.document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const reason = (error as Error).message ?? String(error);
    const message = /alias count/i.test(reason)
      ? `YAML aliases expand to too much data (more than ${MAX_ALIAS_COUNT} alias expansions); write the values out or use fewer aliases`
      : `YAML: ${reason.split("\n")[0]}`;
    return { problem: { message, ...at(firstAlias) } };
  }
}
