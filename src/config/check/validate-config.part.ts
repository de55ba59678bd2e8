/**
 * Validating a config (`validate-config.ts`), which `hookwise hook`'s build loads at its first
 * use: a call answered from the validation cache never reads it (see tsdown.config.ts).
 */
import * as part from "./validate-config.js";

export const validation = (): typeof part => part;
