/**
 * Positions in a config's text (`source-map.ts`), which `hookwise hook`'s build loads at its
 * first use: they are read only to report a problem (see tsdown.config.ts).
 */
import * as part from "./source-map.js";

export const sourceMapModule = (): typeof part => part;
