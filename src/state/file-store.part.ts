/**
 * The file store (`file-store.ts`), which `hookwise hook`'s build loads at its first use: a
 * config whose state is kept elsewhere never reads it (see tsdown.config.ts).
 */
import * as part from "./file-store.js";

export const fileStoreModule = (): typeof part => part;
