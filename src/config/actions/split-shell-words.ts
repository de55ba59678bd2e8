/**
 * Splits a `shell` action's command into argv the way a POSIX shell splits words — and
 * nothing more: quotes group (`'…'` literal, `"…"` with \" \\ \$ \` escapes), a backslash
 * escapes the next character, blanks separate. There is no expansion, no globbing, no
 * operators: the program is run without a shell, so `;`, `|`, `&&`, `>`, `$(…)`, backticks
 * and `$VAR` would silently be literal arguments — they are refused instead, with the way
 * to do it. Splitting happens before templating, so a value filled into `{{…}}` always
 * stays inside its one argument, whatever characters it contains.
 */

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

const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "cmd",
  "pwsh",
  "powershell",
  "python",
  "python3",
  "node",
  "perl",
  "ruby",
]);
const CODE_FLAGS = new Set(["-c", "-e", "--eval", "-Command", "/c", "-p", "--print"]);

/**
 * A template inside code an interpreter runs (`sh -c '… {{x}} …'`, `python -c`) would be
 * executed by that interpreter: the injection `shell` exists to prevent. Returns the
 * problem, or undefined.
 */
export function templatedCode(argv: readonly string[]): string | undefined {
  const program = argv[0]
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.exe$/i, "");
  if (!program || !INTERPRETERS.has(program)) return undefined;
  for (let index = 1; index < argv.length - 1; index++) {
    if (CODE_FLAGS.has(argv[index]!) && argv[index + 1]!.includes("{{")) {
      return (
        `a {{…}} template inside the code that ${program} ${argv[index]} runs would be executed by it; ` +
        `pass the value in env: (e.g. env: { FILE: "{{tool.params.path}}" } and "$FILE" in the code)`
      );
    }
  }
  return undefined;
}
