/**
 * Tools' input schemas (`input-schema.ts`), which `hookwise hook`'s build loads at its first
 * use: a harness's tools are checked only when a config's references are (see tsdown.config.ts).
 */
import * as part from "./input-schema.js";

export const inputSchemaModule = (): typeof part => part;
