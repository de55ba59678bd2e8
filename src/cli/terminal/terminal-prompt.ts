/**
 * One line-reader for a CLI session on a terminal: the chat's "you ›" prompt and the
 * approval prompt share it (two readline interfaces on one stdin would steal each
 * other's lines). Created on first use; `io.ask` replaces it in tests.
 */
import { createInterface, type Interface } from "node:readline/promises";
import type { CliIO } from "../types.js";

export interface TerminalPrompt {
  ask(question: string): Promise<string>;
  close(): void;
}

export function terminalPrompt(io: CliIO): TerminalPrompt {
  if (io.ask) return { ask: io.ask, close() {} };
  let rl: Interface | undefined;
  return {
    ask(question) {
      rl ??= createInterface({ input: process.stdin, output: process.stdout });
      return rl.question(question);
    },
    close() {
      rl?.close();
    },
  };
}
