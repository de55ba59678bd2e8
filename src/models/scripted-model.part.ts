/**
 * The scripted model (`scripted-model.ts`), which `hookwise hook`'s build loads at its first
 * use: a harness's hook builds no model (see tsdown.config.ts).
 */
import * as part from "./scripted-model.js";

export const scriptedModelModule = (): typeof part => part;
