/**
 * A contender: one framework (or the plain loop) set up for one case, whose `run()` does one
 * whole run of the workload and resolves with the run's final text. Each lives in a module
 * of its own under contenders/, loaded only by the processes that measure it. This module
 * holds only the types: the contenders import it, and the list that loads them
 * (contender-list.ts) imports them, so no import goes back from a contender to the list.
 */

import type { Script } from "./script.js";
import type { SeamHooks } from "./seam-hooks.js";

export interface ContenderOptions {
  script: Script;
  hooks: SeamHooks;
}

export interface Contender {
  run(): Promise<string>;
  /** Untimed, between timed rounds (e.g. emptying an in-memory session store). */
  setup?(): void | Promise<void>;
  /** After the last round: checks what it kept, frees what it holds (a server, a folder). */
  close?(): Promise<void>;
}

export type CreateContender = (options: ContenderOptions) => Promise<Contender> | Contender;

export interface ContenderEntry {
  /** Column heading, two lines. */
  heading: [string, string];
  load(): Promise<{ create: CreateContender }>;
  /**
   * What `versus` cases time it against, in turns in one process (a store's run against
   * the in-memory one, a recorded run against the unrecorded one).
   */
  reference?: string;
}
