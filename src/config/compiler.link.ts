/**
 * How the package entry reaches the config compiler. Run from the sources, it is imported
 * here as any module; the build puts `compiler.link.built.ts` in this file's place, which
 * loads the compiler's own built file (`dist/config-compiler.mjs`) at the first call, so
 * `import "hookwise"` does not pay for it (tsdown.config.ts).
 */
import * as compilerModule from "./compiler.js";

export type Compiler = typeof compilerModule;

export const compiler = (): Compiler => compilerModule;
