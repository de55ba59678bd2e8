/** Maps a config path to a line and column of the YAML/JSON source (via the `yaml` CST). */
import type { Document, LineCounter, Node, Pair } from "yaml";
import { yaml } from "../../deps/yaml.js";
import { MAX_NESTING_DEPTH, tooDeepAt } from "../../deps/yaml-nesting-depth.js";
import type { ConfigPath } from "./config-error.js";

export interface SourceDocument {
  document: Document.Parsed;
  lines: LineCounter;
}

export function parseSource(text: string): SourceDocument {
  const lines = new (yaml().LineCounter)();
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    // The parser never sees a text this deep (its recursion could exhaust the stack).
    lines.addNewLine(0);
    for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
      lines.addNewLine(index + 1);
    const document = yaml().parseDocument("", { lineCounter: new (yaml().LineCounter)() });
    const { line, col } = lines.linePos(deep);
    const error = new (yaml().YAMLParseError)(
      [deep, deep + 1],
      "BAD_INDENT",
      `nested more than ${MAX_NESTING_DEPTH} levels deep; flatten the structure`,
    );
    error.linePos = [{ line, col }];
    document.errors.push(error);
    return { document, lines };
  }
  const document = yaml().parseDocument(text, {
    lineCounter: lines,
    keepSourceTokens: false,
    // The library compares each key with every key before it (quadratic in a map's keys);
    // duplicates are found below in one pass instead.
    uniqueKeys: false,
  });
  for (const offset of duplicateKeys(document)) {
    const error = new (yaml().YAMLParseError)(
      [offset, offset + 1],
      "DUPLICATE_KEY",
      "Map keys must be unique",
    );
    const { line, col } = lines.linePos(offset);
    error.linePos = [{ line, col }];
    document.errors.push(error);
  }
  document.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  return { document, lines };
}

/** Where a mapping repeats a key (scalar keys, compared by value as the library does). */
function duplicateKeys(document: Document.Parsed): number[] {
  const offsets: number[] = [];
  yaml().visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items as Pair[]) {
        if (!yaml().isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) offsets.push(pair.key.range?.[0] ?? 0);
        else seen.add(pair.key.value);
      }
    },
  });
  return offsets;
}

/** Each mapping's pairs by key, built the first time a position inside it is asked for. */
const pairsByKey = new WeakMap<object, Map<unknown, Pair>>();

function pairOf(map: { items: unknown[] }, key: unknown): Pair | undefined {
  let pairs = pairsByKey.get(map);
  if (!pairs) {
    pairs = new Map();
    for (const pair of map.items as Pair[]) {
      const value = yaml().isScalar(pair.key) ? pair.key.value : pair.key;
      if (!pairs.has(value)) pairs.set(value, pair);
    }
    pairsByKey.set(map, pairs);
  }
  return pairs.get(key);
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
      const pair = pairOf(node, segment);
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
  // One pass in document order: an alias is resolved when its anchor was set before it.
  // (`Alias.resolve` walks the whole document for each alias: quadratic in the aliases.)
  const anchors = new Set<string>();
  let unresolved: { source: string; offset: number | undefined } | undefined;
  let firstAlias: number | undefined;
  let aliases = 0;
  yaml().visit(source.document, {
    Node(_, node) {
      if (yaml().isAlias(node)) {
        firstAlias ??= node.range?.[0];
        aliases += 1;
        if (!anchors.has(node.source)) {
          unresolved = { source: node.source, offset: node.range?.[0] };
          return yaml().visit.BREAK;
        }
        if (aliases > MAX_ALIAS_COUNT) return yaml().visit.BREAK;
      } else if (node.anchor) anchors.add(node.anchor);
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
  // Each alias the library resolves looks through every node before it: more aliases than
  // the library's own expansion limit allows are refused before it starts.
  if (aliases > MAX_ALIAS_COUNT) return { problem: { message: tooManyAliases(), ...at(firstAlias) } };
  try {
    return { data: source.document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const reason = (error as Error).message ?? String(error);
    const message = /alias count/i.test(reason) ? tooManyAliases() : `YAML: ${reason.split("\n")[0]}`;
    return { problem: { message, ...at(firstAlias) } };
  }
}

function tooManyAliases(): string {
  return `YAML aliases expand to too much data (more than ${MAX_ALIAS_COUNT} alias expansions); write the values out or use fewer aliases`;
}
