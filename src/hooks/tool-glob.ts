/**
 * Globs over tool names (policies, hook `match`, `tool_name` conditions, an agent's `tools`).
 * A tool name is one opaque string, not a path: picomatch's `*` stops at "/", so a tool an
 * MCP server or a module names `repos/delete` (`gh.repos/delete`) would escape `gh.*`, and
 * a deny policy or a decide hook written for the whole toolset would not apply to it.
 * Here "/" is an ordinary character, in the pattern and in the name alike, on every platform.
 */
import { picomatch } from "../deps/picomatch.js";

/** Stands for "/" on both sides (a control character no glob syntax uses). */
const SLASH = "\u001f";

function opaque(text: string): string {
  return text.includes("/") ? text.replaceAll("/", SLASH) : text;
}

/** A matcher for one glob or any of several, tested against one tool name. */
export function toolGlob(patterns: string | readonly string[]): (name: string) => boolean {
  const list = typeof patterns === "string" ? [opaque(patterns)] : patterns.map(opaque);
  const test = picomatch(list, { dot: true, windows: false });
  return (name) => test(opaque(name));
}
