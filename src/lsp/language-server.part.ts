/**
 * A language server's client (`language-server.ts`), which `hookwise hook`'s build loads at its
 * first use: a config that starts no language server never reads it (see tsdown.config.ts).
 */
import * as part from "./language-server.js";

export const languageServerModule = (): typeof part => part;
