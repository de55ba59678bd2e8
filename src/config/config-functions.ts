/**
 * The config compiler's functions as the package exports them: each reaches the compiler
 * through `compiler.link.ts`, which in the built package loads it at the first call.
 */

import type { ValidationResult } from "./check/validate-config.js";
import { type Compiler, compiler } from "./compiler.link.js";
import type { LoadConfigOptions, LoadedConfig } from "./load-config.js";

/**
 * Loads a config file and builds what it declares (models, toolsets, the state store,
 * agents); throws a ConfigError listing every error in the file, or a ConfigFileError when
 * the file cannot be read.
 */
export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  return compiler().loadConfig(path, options);
}

/**
 * Reads and validates a config file; throws a ConfigError listing every error, or a
 * ConfigFileError when the file cannot be read.
 */
export function readConfig(path: string): ReturnType<Compiler["readConfig"]> {
  return compiler().readConfig(path);
}

/**
 * Validates a config's text (YAML or JSON; `file` names it in messages and decides which):
 * every error and warning with its line, column and config path, and the validated config
 * when there are no errors.
 */
export function validateConfigText(text: string, file: string): ValidationResult {
  return compiler().validateConfigText(text, file);
}
