/**
 * How the package entry reaches `claudeHooks`. Run from the sources, it is imported here as
 * any module; the build puts `compile-settings.link.built.ts` in this file's place, which
 * loads its own built file (`dist/claude-hooks.mjs`) at the first call.
 */
import * as compileSettingsModule from "./compile-settings.js";

export type CompileSettings = typeof compileSettingsModule;

export const compileSettings = (): CompileSettings => compileSettingsModule;
