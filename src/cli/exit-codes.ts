/** Exit codes. */
import type { RunOutcome } from "../loop/run-result.js";

export const EXIT = { completed: 0, error: 1, usage: 2, terminated: 3, max_steps: 4, suspended: 5 } as const;

export function exitCodeFor(outcome: RunOutcome): number {
  return EXIT[outcome];
}
