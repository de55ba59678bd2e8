/**
 * Splits a `shell` action's command into argv the way a POSIX shell splits words — and
 * nothing more: quotes group (`'…'` literal, `"…"` with \" \\ \$ \` escapes), a backslash
 * escapes the next character, blanks separate. There is no expansion, no globbing, no
 * operators: the program is run without a shell, so `;`, `|`, `&&`, `>`, `$(…)`, backticks
 * and `$VAR` would silently be literal arguments — they are refused instead, with the way
 * to do it. Splitting happens before templating, so a value filled into `{{…}}` always
 * stays inside its one argument, whatever characters it contains. Glob characters
 * (`* ? [`), a word starting with `~` or `#` are refused for the same reason.
 */
import { shellRule } from "./shell-rule.part.js";

export class ShellWordsError extends Error {
  override readonly name = "ShellWordsError";
}

const OPERATORS = new Set([";", "|", "&", "<", ">", "`"]);

export function splitShellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (char === " " || char === "\t" || char === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    const wordStart = !inWord;
    inWord = true;
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) throw new ShellWordsError("unterminated single quote");
      word += command.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      index++;
      for (; index < command.length && command[index] !== '"'; index++) {
        const inner = command[index]!;
        if (inner === "\\" && index + 1 < command.length && '"\\$`\n'.includes(command[index + 1]!)) {
          word += command[++index];
        } else {
          word += inner;
        }
      }
      if (index >= command.length) throw new ShellWordsError("unterminated double quote");
    } else if (char === "\\") {
      if (index + 1 >= command.length) throw new ShellWordsError("a trailing backslash escapes nothing");
      word += command[++index];
    } else if (OPERATORS.has(char)) {
      throw new ShellWordsError(
        `"${char}" is a shell operator, but the command runs without a shell; ` +
          "run one program per shell action (a chain runs several), or quote it to pass it literally",
      );
    } else if (char === "*" || char === "?" || char === "[") {
      throw new ShellWordsError(
        `"${char}" is a glob character, but nothing expands it (there is no shell); name the files, or quote it to pass it literally`,
      );
    } else if (wordStart && (char === "~" || char === "#")) {
      throw new ShellWordsError(
        char === "~"
          ? 'a leading "~" is not expanded to a home folder (there is no shell); use {{workspace}} or an absolute path, or quote it to pass it literally'
          : 'a "#" starting a word is not a comment (there is no shell); remove it, or quote it to pass it literally',
      );
    } else if (char === "$" && /[A-Za-z_{(]/.test(command[index + 1] ?? "")) {
      throw new ShellWordsError(
        "$ expansions do not happen (there is no shell); use a {{…}} template, or env: for variables, or quote it to pass it literally",
      );
    } else {
      word += char;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new ShellWordsError("the command is empty");
  return words;
}

/**
 * The refusal for templates in this argv that are code or choose what runs, whatever the
 * author says (see shell-rule.ts; `templates_are_data: true` does not lift it), or undefined.
 */
export function templatedCode(argv: readonly string[]): string | undefined {
  return shellRule().shellTemplateProblem(argv, undefined, {}, true)?.message;
}
