/**
 * `validate`'s warning for a Claude Code tool hook whose matcher matches none of the config's
 * tools: it never runs. A warning, not an error, as in Claude Code: a settings file is shared
 * with Claude Code and other projects, where `Bash` or `Edit` exist. Not checked while a
 * toolset's tools are unknown (MCP servers are not started by `validate`).
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ConfigIssue, ConfigPath } from "../../../../config/source/config-error.js";
import { parseSource, positionOf, type SourceDocument } from "../../../../config/source/source-map.js";
import { nearest } from "../../../../errors/nearest.js";
import { compileClaudeMatcher } from "./claude-matcher.js";
import { readClaudeSettings } from "./read-claude-settings.js";

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

/** A tool of the config, by every name a Claude Code matcher may give it. */
export interface MatchableTool {
  qualifiedName: string;
  functionName: string;
  /** The name Claude Code hooks know it by (`Read`), when the tool declares one. */
  claudeName?: string;
}

export function checkClaudeMatchers(
  settings: readonly string[],
  dir: string,
  tools: readonly MatchableTool[],
): ConfigIssue[] {
  if (settings.length === 0) return [];
  const read = readClaudeSettings(settings, { baseDir: dir });
  const names = tools.map((tool) => [
    ...(tool.claudeName ? [tool.claudeName] : []),
    tool.qualifiedName,
    ...(tool.functionName !== tool.qualifiedName ? [tool.functionName] : []),
  ]);
  const issues: ConfigIssue[] = [];
  const reported = new Set<string>();
  const documents = new Map<string, SourceDocument>();
  const position = (file: string, path: ConfigPath, fallback: { line: number; column: number }) => {
    try {
      if (!documents.has(file)) documents.set(file, parseSource(readFileSync(file, "utf8")));
      return positionOf(documents.get(file)!, path);
    } catch {
      return fallback;
    }
  };
  for (const handler of read.handlers) {
    if (!TOOL_EVENTS.has(handler.claudeEvent) || handler.matcher === undefined) continue;
    const matches = compileClaudeMatcher(handler.matcher);
    if (names.some((candidates) => matches(candidates))) continue;
    const group = handler.path.slice(0, 3);
    const file = isAbsolute(handler.origin) ? handler.origin : resolve(read.projectDir, handler.origin);
    const key = `${file}:${group.join(".")}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const known = names.map((candidates) => candidates[0]!);
    const path = [...group, "matcher"];
    const suggestion = nearest(handler.matcher, known);
    issues.push({
      severity: "warning",
      file,
      ...position(file, path, handler),
      path,
      ...(suggestion ? { suggestion } : {}),
      message: `matcher "${handler.matcher}" matches none of this config's tools: its hooks never run here`,
      expected: known.length
        ? `a name among ${known.slice(0, 12).join(", ")}${known.length > 12 ? ", …" : ""}`
        : "a tool of a toolset under toolsets:",
    });
  }
  return issues;
}
