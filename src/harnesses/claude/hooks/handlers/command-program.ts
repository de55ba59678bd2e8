/**
 * The file a Claude Code command handler starts, when it can be read off the command line
 * without running a shell: its program written as a path (`"$CLAUDE_PROJECT_DIR"/.claude/
 * hooks/check.sh`, `.claude/hooks/check.sh`), or the script an interpreter is given
 * (`python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py`). `$CLAUDE_PROJECT_DIR` is the only
 * expansion followed; a command whose start holds any other (`$HOME`, `$(…)`, `~`, a glob)
 * or starts with a shell keyword or a `cd` is not read, and a bare program name is looked up
 * on PATH when it runs. A relative path resolves against the project folder, where the
 * command runs.
 */
import { basename, resolve } from "node:path";

export interface CommandFile {
  /** The absolute path. */
  file: string;
  /** `program`: started itself (must be executable); `script`: read by an interpreter. */
  role: "program" | "script";
}

/** Interpreters whose first argument that is not an option is the script they run. */
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "node",
  "python",
  "python3",
  "ruby",
  "perl",
  "php",
  "bun",
]);

const PROJECT_DIR = /^\$(?:CLAUDE_PROJECT_DIR\b|\{CLAUDE_PROJECT_DIR\})/;

/**
 * The command line's first words, `$CLAUDE_PROJECT_DIR` filled in; stops at the first word
 * it cannot read for certain (that word and those after it are left out).
 */
export function leadingWords(command: string, projectDir: string, count = 2): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let index = 0;
  const expand = (): boolean => {
    const match = PROJECT_DIR.exec(command.slice(index));
    if (!match) return false;
    word += projectDir;
    index += match[0].length;
    return true;
  };
  while (index < command.length && words.length < count) {
    const char = command[index]!;
    if (char === " " || char === "\t") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      index++;
      continue;
    }
    if (!inWord && char === "~") return words;
    inWord = true;
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) return words;
      word += command.slice(index + 1, end);
      index = end + 1;
    } else if (char === '"') {
      index++;
      while (index < command.length && command[index] !== '"') {
        const inner = command[index]!;
        if (inner === "$") {
          if (!expand()) return words;
        } else if (inner === "`") return words;
        else if (inner === "\\" && index + 1 < command.length) {
          word += command[index + 1];
          index += 2;
        } else {
          word += inner;
          index++;
        }
      }
      if (index >= command.length) return words;
      index++;
    } else if (char === "$") {
      if (!expand()) return words;
    } else if (char === "\\" && index + 1 < command.length) {
      word += command[index + 1];
      index += 2;
    } else if (/[;|&<>()`*?[\n{}!#]/.test(char)) {
      return words;
    } else {
      word += char;
      index++;
    }
  }
  if (inWord && words.length < count && index >= command.length) words.push(word);
  return words;
}

/** What the handler starts that can be checked before it runs; undefined when nothing can. */
export function commandFile(
  handler: { command: string; args?: readonly string[] | undefined },
  projectDir: string,
): CommandFile | undefined {
  if (handler.args !== undefined) {
    // Exec form: the program as written, no expansion.
    if (!handler.command.includes("/") || handler.command.includes("$")) return undefined;
    return { file: resolve(projectDir, handler.command), role: "program" };
  }
  const words = leadingWords(handler.command, projectDir, 3);
  // A variable assignment before the program (`FOO=1 ./check.sh`) is not read.
  if (words[0] === undefined || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) return undefined;
  const program = words[0];
  if (program.includes("/")) return { file: resolve(projectDir, program), role: "program" };
  if (!INTERPRETERS.has(basename(program))) return undefined;
  const script = words[1];
  if (script === undefined || script.startsWith("-") || !script.includes("/")) return undefined;
  return { file: resolve(projectDir, script), role: "script" };
}
