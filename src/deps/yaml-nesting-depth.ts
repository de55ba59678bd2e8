/**
 * How deep a YAML or JSON text nests, measured before the `yaml` parser sees it. The parser
 * and the composer recurse once per level: a few kilobytes of `[[[[…` exhaust the stack,
 * and V8 compiling a regular expression on an exhausted stack aborts the whole process (an
 * error no `catch` sees). One linear pass over the text, with no regular expression,
 * measures the depth instead: block levels by indentation (and compact `- ` / `? ` on one
 * line), flow levels by `[` and `{` outside quoted strings and comments; block scalar
 * contents (`|`, `>`) are skipped.
 */

/** Deeper than this, a config or a file it names is refused: no hand-written config comes near it. */
export const MAX_NESTING_DEPTH = 64;

/** Where the text first nests deeper than `limit` (an offset into it), or undefined. */
export function tooDeepAt(text: string, limit = MAX_NESTING_DEPTH): number | undefined {
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  let blockScalarIndent: number | undefined;
  let offset = 0;
  while (offset <= text.length) {
    const end = lineEnd(text, offset);
    let index = offset;
    while (index < end && text[index] === " ") index++;
    const indent = index - offset;
    const blank = index === end || text[index] === "#" || text[index] === "\r";
    if (blockScalarIndent !== undefined && (blank || indent > blockScalarIndent)) {
      offset = end + 1;
      continue;
    }
    blockScalarIndent = undefined;
    if (!blank && quote === undefined && flow === 0) {
      while (indents.length > 0 && (indents.at(-1) as number) >= indent) indents.pop();
      indents.push(indent);
    }
    let depth = indents.length;
    let tokenStart = true;
    for (; index < end; index++) {
      const char = text[index] as string;
      if (quote === '"') {
        if (char === "\\") index++;
        else if (char === '"') quote = undefined;
        continue;
      }
      if (quote === "'") {
        if (char === "'") quote = undefined;
        continue;
      }
      if (char === "#" && tokenStart) break;
      if ((char === '"' || char === "'") && tokenStart) quote = char;
      else if (char === "[" || char === "{") flow++;
      else if (char === "]" || char === "}") flow = Math.max(0, flow - 1);
      else if ((char === "-" || char === "?") && tokenStart && flow === 0 && isBlank(text[index + 1]))
        depth++;
      if (depth + flow > limit) return index;
      tokenStart = isBlank(char) || char === "[" || char === "{" || char === "," || char === ":";
    }
    if (quote === undefined && flow === 0 && blockScalarHeader(text, offset, end)) blockScalarIndent = indent;
    offset = end + 1;
  }
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

function isBlank(char: string | undefined): boolean {
  return char === undefined || char === " " || char === "\t" || char === "\r" || char === "\n";
}

/** A line ending in a block scalar indicator: `key: |`, `- >-`, `|2` (a comment may follow). */
function blockScalarHeader(text: string, start: number, end: number): boolean {
  let index = end - 1;
  // A comment after the indicator (` # …`): looked for on this line only.
  for (let at = start; at < end - 1; at++) {
    if (text[at] === " " && text[at + 1] === "#") {
      index = at - 1;
      break;
    }
  }
  while (index >= start && isBlank(text[index])) index--;
  while (index >= start && "0123456789+-".includes(text[index] as string)) index--;
  const indicator = text[index];
  return (indicator === "|" || indicator === ">") && (index === start || isBlank(text[index - 1]));
}
