/**
 * Whether a hook command's program, named bare (`python3`, `uv`, `jq`), can be found on
 * PATH, as the shell will look for it when the hook runs: a missing interpreter would
 * otherwise pass `validate` and fail every call. Shell builtins and keywords need no file.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

const SHELL_WORDS = new Set([
  "cd",
  "echo",
  "exit",
  "true",
  "false",
  "test",
  "[",
  "export",
  "set",
  "unset",
  "printf",
  "read",
  "if",
  "for",
  "while",
  "until",
  "case",
  "exec",
  "eval",
  "source",
  ".",
  ":",
  "command",
  "type",
  "trap",
  "wait",
  "shift",
  "return",
  "local",
  "declare",
  "pwd",
  "umask",
  "ulimit",
  "kill",
]);

export function programOnPath(program: string, pathVariable: string | undefined): boolean {
  if (SHELL_WORDS.has(program)) return true;
  for (const folder of (pathVariable ?? "").split(delimiter)) {
    if (!folder) continue;
    const file = join(folder, program);
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK);
        return true;
      }
    } catch {
      // Not here: the next folder.
    }
  }
  return false;
}
