/**
 * `claudeHooks` as the package exports it: it reaches the settings compiler through
 * `compile-settings.link.ts`, which in the built package loads it at the first call.
 */

import type { ClaudeHookSet, ClaudeHooksOptions } from "./claude-hooks.js";
import { compileSettings } from "./compile-settings.link.js";
import type { ClaudeSettingsSource } from "./settings/claude-handler-spec.js";

/**
 * Compiles Claude Code settings into hookwise hooks. Throws a `ConfigError` (every error with
 * its file, line and column) when the settings cannot run; warnings never throw.
 */
export function claudeHooks(
  source: ClaudeSettingsSource | readonly ClaudeSettingsSource[],
  options: ClaudeHooksOptions = {},
): ClaudeHookSet {
  return compileSettings().claudeHooks(source, options);
}
