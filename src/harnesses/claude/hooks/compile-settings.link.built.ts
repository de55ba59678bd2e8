/** `compile-settings.link.ts` as the build ships it: the settings compiler loads at the first call. */
import { ownFile } from "../../../deps/own-file.js";
import type { CompileSettings } from "./compile-settings.link.js";

export const compileSettings = ownFile<CompileSettings>("claude-hooks");
