/**
 * The config's schema (`schema.ts`), which `hookwise hook`'s build loads at its first use: a
 * call answered from the validation cache never reads it (see tsdown.config.ts).
 */
import * as part from "./schema.js";

export const configSchemaModule = (): typeof part => part;
