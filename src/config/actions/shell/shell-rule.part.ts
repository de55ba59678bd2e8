/**
 * The shell rule (`shell-rule.ts`), which `hookwise hook`'s build loads at its first use: a
 * config without a `shell` action never reads it (see tsdown.config.ts).
 */
import * as part from "./shell-rule.js";

export const shellRule = (): typeof part => part;
