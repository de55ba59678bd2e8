/** `compiler.link.ts` as the build ships it: the config compiler loads at the first call. */
import { ownFile } from "../deps/own-file.js";
import type { Compiler } from "./compiler.link.js";

export const compiler = ownFile<Compiler>("config-compiler");
