/**
 * A short name for a handler, for hook names, traces and messages: the script a command runs
 * (`block-rm.sh` for `"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh`), else the start of
 * the command line; an http handler's host and path.
 */
import type { ClaudeHandlerSpec } from "../settings/claude-handler-spec.js";

const SCRIPT = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|php|ps1)$/;

export function scriptLabel(spec: ClaudeHandlerSpec): string {
  if (spec.type === "prompt") {
    const line = spec.prompt.trim().replace(/\s+/g, " ");
    return `prompt "${line.length > 30 ? `${line.slice(0, 29)}…` : line}"`;
  }
  if (spec.type === "http") {
    try {
      const url = new URL(spec.url);
      return `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
    } catch {
      return spec.url;
    }
  }
  const words = [spec.command, ...(spec.args ?? [])].flatMap((part) => part.split(/\s+/));
  const paths = words
    .map((word) => word.replace(/^["']+|["';|&]+$/g, ""))
    .filter((word) => SCRIPT.test(word) || (word.includes("/") && !word.startsWith("-")));
  const script = paths.find((word) => SCRIPT.test(word)) ?? paths[0];
  if (script) return script.slice(script.lastIndexOf("/") + 1);
  const line = spec.command.trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
