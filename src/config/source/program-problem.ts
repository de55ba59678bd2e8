/**
 * Whether a program written as a path (`./scripts/check.sh`, `/opt/bin/lint`) can be
 * started: `validate` and `run` report one that cannot before anything runs, instead of a
 * hook that fails at every call. A bare name (`python`) is looked up on PATH when the
 * command runs and is not checked here.
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { nearest } from "../../errors/nearest.js";

export interface ProgramProblem {
  /** "does not exist", "is a folder", "is not executable". */
  reason: string;
  /** The nearest file name in the program's folder, when the program does not exist. */
  nearest?: string;
}

/** Why the program at `file` (absolute) cannot start, or undefined when it can. */
export function programProblem(file: string): ProgramProblem | undefined {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    let names: string[] = [];
    try {
      names = readdirSync(dirname(file));
    } catch {
      // The folder does not exist either: nothing to suggest.
    }
    const near = nearest(basename(file), names);
    return { reason: "does not exist", ...(near ? { nearest: near } : {}) };
  }
  if (isDirectory) return { reason: "is a folder" };
  if (process.platform === "win32") return undefined;
  try {
    accessSync(file, constants.X_OK);
  } catch {
    return { reason: "is not executable (chmod +x it, or run it with its interpreter)" };
  }
  return undefined;
}

/** Whether a command's program word names a file rather than a program on PATH. */
export function isProgramPath(program: string): boolean {
  return program.includes("/");
}
