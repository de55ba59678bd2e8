/**
 * Checking a config's references (`check-references.ts`), which `hookwise hook`'s build loads
 * at its first use: a call answered from a validation-cache entry whose references checked
 * clean never reads it (see tsdown.config.ts).
 */
import * as part from "./check-references.js";

export const referenceChecks = (): typeof part => part;
