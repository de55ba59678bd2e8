/**
 * `claudeHooks`, in one module the package entry reaches only when it is first called (see
 * `compile-settings.link.ts`): code that never reads Claude Code settings does not load
 * their compiler.
 */
export { claudeHooks } from "./claude-hooks.js";
