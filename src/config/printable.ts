/**
 * Text from tool arguments, results, errors and model output, made safe to print on a
 * terminal: the control characters a terminal acts on (ESC and every other C0 and C1
 * control, DEL, carriage return, line and paragraph separators, bidirectional overrides)
 * are written as visible escapes (`\x1b`, `\r`, `\u202e`), so a value can neither move the
 * cursor, clear the screen, recolour the output nor start a line that looks like
 * hookwise's own.
 */

const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/**
 * What no printed text keeps raw: every control character but newline and tab, which the
 * CLI's own lines are made of. An ESC is kept only where it opens one of the colour codes
 * the CLI writes itself (`\x1b[31m`…), and only when colour is on.
 */
const OUTPUT_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /\u001b(?:\[(?:1|2|22|31|32|33|35|36|39)m)?|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\u001b": "\\x1b" };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** One line: every control character escaped, newlines included (a tab stays). */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/**
 * Several lines: control characters escaped, and each line after the first starts with
 * `continuation`, so no value starts a line of its own. `\r\n` counts as one newline.
 */
export function printableLines(text: string, continuation: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(CONTROL_BUT_NEWLINE, escapeChar)
    .replace(/\n/g, `\n${continuation}`);
}

/** Model output printed as it streams: control characters escaped; newlines and tabs kept. */
export function printableText(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROL_BUT_NEWLINE, escapeChar);
}

/**
 * The last line of defence for everything the CLI prints, every subcommand alike: a
 * control character that reached a printer raw (from a value no command escaped first) is
 * written as a `\uXXXX` escape — which a JSON document on stdout reads back as the same
 * character, so `--json` output stays valid and keeps its data. With `color`, the CLI's
 * own colour codes pass; any other ESC is escaped.
 */
export function printableOutput(text: string, color: boolean | (() => boolean) = false): string {
  // `color` is asked only when a colour code is met: knowing it loads the terminal module.
  return text.replace(OUTPUT_CONTROL, (match) =>
    match.length > 1 && (typeof color === "function" ? color() : color)
      ? match
      : unicodeEscape(match[0] as string) + match.slice(1),
  );
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
