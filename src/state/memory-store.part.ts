/**
 * The memory store (`memory-store.ts`), which `hookwise hook`'s build loads at its first use: a
 * config whose state is kept elsewhere never reads it (see tsdown.config.ts).
 */
import * as part from "./memory-store.js";

export const memoryStoreModule = (): typeof part => part;
