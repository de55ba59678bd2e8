/**
 * The redis store (`redis-store.ts`), which `hookwise hook`'s build loads at its first use: a
 * config whose state is kept elsewhere never reads it (see tsdown.config.ts).
 */
import * as part from "./redis-store.js";

export const redisStoreModule = (): typeof part => part;
