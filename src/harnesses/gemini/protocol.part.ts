/**
 * Gemini's protocol (`protocol.ts`), which `hookwise hook`'s build loads at its first use: a
 * call from another harness never reads it (see tsdown.config.ts).
 */
import * as part from "./protocol.js";

export const geminiProtocolModule = (): typeof part => part;
