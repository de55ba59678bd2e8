/**
 * What an MCP server that could not start said on stderr, in one line: the first line that
 * says what went wrong (Node's `Error [ERR_MODULE_NOT_FOUND]: Cannot find package …` comes
 * before a long stack, which a plain tail would keep instead) and then the last lines, stack
 * frames left out.
 */

const STACK_FRAME = /^\s+at\s/;
const SAYS_WHY =
  /error|cannot|can't|could not|failed|not found|no such|denied|refused|missing|invalid|exception/i;
const MAX = 600;

/**
 * `head`: the start of what the server wrote; `tail`: its end (they may overlap or be
 * equal); `cut`: the tail starts inside a line (its first line is a fragment, left out).
 */
export function stderrSummary(head: string, tail: string, cut = false): string {
  const lines = (text: string) =>
    text
      .split(/\r?\n/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== "" && !STACK_FRAME.test(line));
  const why = lines(head)
    .find((line) => SAYS_WHY.test(line))
    ?.trim();
  const last = lines(cut ? tail.slice(tail.indexOf("\n") + 1) : tail)
    .slice(-3)
    .map((line) => line.trim());
  const parts = why && !last.includes(why) ? [why, "…", ...last] : last;
  const text = parts.join(" ").replace(/… …/g, "…");
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}
