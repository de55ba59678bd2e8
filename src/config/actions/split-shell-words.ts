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

/** Programs that run code given in their arguments (a version suffix is allowed: python3.12). */
const INTERPRETER =
  /^(sh|bash|zsh|dash|ksh|mksh|fish|csh|tcsh|ash|busybox|cmd|pwsh|powershell|python|pypy|node|nodejs|deno|bun|perl|ruby|php|lua|luajit|tclsh|wish|awk|gawk|mawk|osascript|Rscript)[\d.]*$/i;
/** Programs that run another program named in their arguments. */
const WRAPPERS = new Set([
  "env",
  "nice",
  "nohup",
  "timeout",
  "stdbuf",
  "sudo",
  "doas",
  "exec",
  "command",
  "time",
  "xargs",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
]);
/** Flags after which an interpreter's arguments are code: -c, -e, -E, groups like -ec / -lc, and long forms. */
const CODE_FLAG =
  /^(-[A-Za-z]*[ceE][A-Za-z]*|--eval|--print|--command|--exec|-Command|-EncodedCommand|\/[cCkK]|-p|-r)$/;
const CODE_FLAG_WITH_VALUE = /^(--eval|--print|--command|--exec|-Command)=/;

function baseName(word: string): string {
  return word
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, "");
}

/**
 * A template where a program will execute it would be an injection — the thing `shell`
 * exists to prevent. Refused: a template in the program name (or a wrapped program's,
 * `env` / `timeout` / `xargs` …); in an interpreter's code (after -c, -e, -ec, --eval…,
 * or inside `--eval=…`). A template as a plain argument (`python -m py_compile
 * {{tool.params.path}}`) stays one literal argv element and is fine. Returns the problem.
 */
export function templatedCode(argv: readonly string[]): string | undefined {
  let index = 0;
  for (;;) {
    const word = argv[index];
    if (word === undefined) return undefined;
    if (word.includes("{{")) {
      return "a {{…}} template cannot name the program to run; name it literally and pass values as arguments or in env:";
    }
    if (!WRAPPERS.has(baseName(word))) break;
    index++;
    // Skip the wrapper's own flags, VAR=value assignments and durations (timeout 5s …).
    while (index < argv.length && /^(-|[A-Za-z_][A-Za-z0-9_]*=|\d+(\.\d+)?[smhd]?$)/.test(argv[index]!)) {
      if (argv[index]!.includes("{{"))
        return "a {{…}} template in a wrapper's arguments could change what runs";
      index++;
    }
  }
  const program = baseName(argv[index]!);
  if (!INTERPRETER.test(program)) return undefined;
  let code = false;
  for (let next = index + 1; next < argv.length; next++) {
    const word = argv[next]!;
    if (CODE_FLAG_WITH_VALUE.test(word) && word.includes("{{")) code = true;
    // The module or script to run (`python -m {{x}}`, `node {{x}}`) is code too.
    const runs = argv[next - 1] === "-m" || (next === index + 1 && !word.startsWith("-"));
    if (runs && word.includes("{{")) code = true;
    if (code && word.includes("{{")) {
      return (
        `a {{…}} template inside the code that ${program} runs would be executed by it; ` +
        `pass the value in env: (e.g. env: { FILE: "{{tool.params.path}}" } and "$FILE" in the code)`
      );
    }
    if (CODE_FLAG.test(word)) code = true;
  }
  return undefined;
}
