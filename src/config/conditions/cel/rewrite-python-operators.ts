/**
 * Expressions may be written in Python style (`turn > 5 and pressure > 0.6`); hookwise evaluates
 * CEL. This rewrites the Python spellings to CEL outside string literals, keeping Python's
 * precedence:
 *
 * - `and` → `&&`, `or` → `||`, `True` / `False` / `None` → `true` / `false` / `null`;
 * - `not X` → `!(X)`, where X runs to the next `and` / `or` / `&&` / `||` / `,` / `?` / `:`
 *   or closing bracket of the same depth (Python's `not` binds looser than comparisons:
 *   `not turn > 5` is `!(turn > 5)`, never `(!turn) > 5`);
 * - `a not in b` → `!(a in b)`.
 *
 * A word after `.` is a field name and is left alone (`args.not`), as is everything inside
 * '…', "…", '''…''', """…""", raw strings (r'…') and `backquoted` names. The result maps
 * each output position back to the source, so parse errors point into what the user wrote.
 *
 * Most expressions are CEL already: one without any of the words where the rewriter could
 * see one is returned as it is, without running the rewriter (a warm `hookwise hook` compiles
 * every expression of its config on each call).
 */

export interface RewrittenExpression {
  text: string;
  /** The source offset of an output offset (the source length past the end). */
  sourceOffset(offset: number): number;
}

const REPLACED: Readonly<Record<string, string>> = {
  and: "&&",
  or: "||",
  True: "true",
  False: "false",
  None: "null",
};

interface Frame {
  /** `!(` opened at this depth and not yet closed. */
  open: number;
  /** Output offset where the current operand of `not` / `not in` starts. */
  clauseStart: number;
}

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;

/**
 * One of the rewritten words, not inside a longer name. The rewriter only sees a word that
 * starts after a character that is not a letter or `_` (the run before would have taken it)
 * and ends before one that is not a letter, digit or `_`; inside strings and after `.` it
 * leaves the word alone, so this matches where it would rewrite and, harmlessly, more.
 */
const PYTHON_WORD = /(?<![A-Za-z_])(?:and|or|not|True|False|None)(?![A-Za-z0-9_])/;

export function rewritePythonOperators(source: string): RewrittenExpression {
  if (!PYTHON_WORD.test(source)) return unchanged(source);
  return rewriteFully(source);
}

/** The text as written: each output offset is its own source offset. */
function unchanged(source: string): RewrittenExpression {
  const length = source.length;
  return {
    text: source,
    sourceOffset: (offset) => (Number.isInteger(offset) && offset >= 0 && offset < length ? offset : length),
  };
}

/** The rewriter without the shortcut (its tests compare both). */
export function rewriteFully(source: string): RewrittenExpression {
  const rewriter = new Rewriter(source);
  rewriter.run();
  return rewriter.result();
}

class Rewriter {
  readonly #source: string;
  readonly #out: string[] = [];
  /** For each output character, the source offset it came from. */
  readonly #map: number[] = [];
  readonly #frames: Frame[] = [{ open: 0, clauseStart: 0 }];
  /** The last non-space source character handled ("a" after a word): a "." makes the next word a field. */
  #last = "";

  constructor(source: string) {
    this.#source = source;
  }

  run(): void {
    const source = this.#source;
    let index = 0;
    while (index < source.length) {
      const char = source[index]!;
      if (char === '"' || char === "'" || char === "`") {
        index = this.#copy(index, literalEnd(source, index, isRawPrefix(source, index)));
      } else if (IDENTIFIER_START.test(char)) {
        index = this.#word(index);
        continue;
      } else if (source.startsWith("&&", index) || source.startsWith("||", index)) {
        this.#closeOpen(index);
        index = this.#copy(index, index + 2);
        this.#startClause();
      } else {
        this.#punctuation(char, index);
        index++;
      }
      if (!/\s/.test(char)) this.#last = source[index - 1]!;
    }
    while (this.#frames.length > 0) {
      this.#closeOpen(source.length);
      this.#frames.pop();
    }
  }

  result(): RewrittenExpression {
    const map = this.#map;
    const length = this.#source.length;
    return { text: this.#out.join(""), sourceOffset: (offset) => map[offset] ?? length };
  }

  /** A word at `start`; returns the offset after what it consumed. */
  #word(start: number): number {
    const source = this.#source;
    let end = start + 1;
    while (end < source.length && IDENTIFIER_PART.test(source[end]!)) end++;
    const word = source.slice(start, end);
    const field = this.#last === ".";
    this.#last = "a";
    if (field || (word !== "not" && !Object.hasOwn(REPLACED, word))) return this.#copy(start, end);
    if (word === "and" || word === "or") {
      this.#closeOpen(start);
      this.#emit(REPLACED[word]!, start);
      this.#startClause();
      return end;
    }
    if (word !== "not") {
      this.#emit(REPLACED[word]!, start);
      return end;
    }
    this.#top().open++;
    const inEnd = followingIn(source, end);
    if (inEnd !== undefined) {
      // `a not in b`: open `!(` where the comparison's left operand starts.
      let at = this.#top().clauseStart;
      while (at < this.#out.length && /\s/.test(this.#out[at]!)) at++;
      this.#out.splice(at, 0, "!", "(");
      this.#map.splice(at, 0, start, start);
      return this.#copy(inEnd - 2, inEnd);
    }
    this.#emit("!(", start);
    while (end < source.length && /\s/.test(source[end]!)) end++;
    this.#startClause();
    return end;
  }

  #punctuation(char: string, index: number): void {
    if (char === "(" || char === "[" || char === "{") {
      this.#copy(index, index + 1);
      this.#frames.push({ open: 0, clauseStart: this.#out.length });
    } else if (char === ")" || char === "]" || char === "}") {
      this.#closeOpen(index);
      if (this.#frames.length > 1) this.#frames.pop();
      this.#copy(index, index + 1);
    } else if (char === "," || char === "?" || char === ":") {
      this.#closeOpen(index);
      this.#copy(index, index + 1);
      this.#startClause();
    } else {
      this.#copy(index, index + 1);
    }
  }

  #top(): Frame {
    return this.#frames[this.#frames.length - 1]!;
  }

  #emit(text: string, from: number): void {
    for (const char of text) {
      this.#out.push(char);
      this.#map.push(from);
    }
  }

  /** Copies source[from, to) verbatim; returns `to`. */
  #copy(from: number, to: number): number {
    for (let index = from; index < to; index++) {
      this.#out.push(this.#source[index]!);
      this.#map.push(index);
    }
    return to;
  }

  /** Closes this depth's pending `!(`, before any trailing whitespace: `!(a) && b`. */
  #closeOpen(at: number): void {
    const frame = this.#top();
    if (frame.open === 0) return;
    let insert = this.#out.length;
    while (insert > frame.clauseStart && /\s/.test(this.#out[insert - 1]!)) insert--;
    this.#out.splice(insert, 0, ...")".repeat(frame.open));
    this.#map.splice(insert, 0, ...Array<number>(frame.open).fill(at));
    frame.open = 0;
  }

  #startClause(): void {
    this.#top().clauseStart = this.#out.length;
  }
}

/** r'…', R"…", rb'…', br"…": the letters right before the quote make it raw (no escapes). */
function isRawPrefix(source: string, quote: number): boolean {
  let start = quote;
  while (start > 0 && /[rRbB]/.test(source[start - 1]!)) start--;
  if (start > 0 && IDENTIFIER_PART.test(source[start - 1]!)) return false;
  return /[rR]/.test(source.slice(start, quote));
}

/** The offset just past the string (or backquoted name) starting at `start`. */
function literalEnd(source: string, start: number, raw: boolean): number {
  const quote = source[start]!;
  const triple = quote !== "`" && source.startsWith(quote.repeat(3), start);
  const closing = triple ? quote.repeat(3) : quote;
  let index = start + closing.length;
  while (index < source.length) {
    if (source[index] === "\\" && !raw && quote !== "`") {
      index += 2;
      continue;
    }
    if (source.startsWith(closing, index)) return index + closing.length;
    index++;
  }
  return source.length;
}

/** When `not` at `from` is followed by the word `in`, the offset just past it. */
function followingIn(source: string, from: number): number | undefined {
  let index = from;
  while (index < source.length && /\s/.test(source[index]!)) index++;
  if (source.slice(index, index + 2) !== "in") return undefined;
  if (index + 2 < source.length && IDENTIFIER_PART.test(source[index + 2]!)) return undefined;
  return index + 2;
}
