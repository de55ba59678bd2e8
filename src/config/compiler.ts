/**
 * The config compiler's public functions, in one module the package entry reaches only when
 * one of them is first called (see `compiler.link.ts`): importing hookwise to build agents in
 * code does not load the YAML parser, the config schemas and every condition and action.
 */

export { validateConfigText } from "./check/validate-config.js";
export { loadConfig, readConfig } from "./load-config.js";
