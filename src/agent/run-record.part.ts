/**
 * An agent run's record (`run-record.ts`), which `hookwise hook`'s build loads at its first use:
 * a harness's hook records no agent run (see tsdown.config.ts).
 */
import * as part from "./run-record.js";

export const runRecordModule = (): typeof part => part;
