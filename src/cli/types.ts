/** Types the CLI's commands share. */
import type { Printer } from "./terminal/render-event.js";

/** Where a command prints and how it asks: the process's streams, or a test's capture. */
export interface CliIO {
  stdout: Printer & {
    /** Writes what masking still holds back (the process's printer: `main` does at the end). */
    flush?(): void;
    /** Whether something printed did not reach stdout: its reader went away (EPIPE). */
    lost?(): boolean;
  };
  stderr: Printer;
  isTTY: boolean;
  /** Colours in the live trace (stdout a terminal, NO_COLOR / FORCE_COLOR honoured). */
  color?: boolean;
  /** Reads one answer on the terminal (tests pass one; default: readline on stdin). */
  ask?: (question: string) => Promise<string>;
  /** All of stdin, when it is not a terminal (tests pass one; default: the process's stdin). */
  readInput?: () => Promise<string>;
}
