/**
 * Where problems in Claude Code settings are reported: each with its file, line, column and
 * path in the source (a settings object has no positions: 1:1).
 */
import type { ConfigIssue, ConfigPath } from "../../../../config/source/config-error.js";
import { positionOf, type SourceDocument } from "../../../../config/source/source-map.js";

/** One settings source as read: a file (with its parsed document) or an object. */
export interface SettingsSource {
  /** How hook names and messages call it (`.claude/settings.json`, `settings`). */
  origin: string;
  /** The file, or `(settings object)`. */
  file: string;
  /** Precedence: 0 user, 1 project, 2 local, 3 managed. */
  level: number;
  data: unknown;
  document: SourceDocument | undefined;
  /** A plugin's hooks (`hooks/hooks.json`): the plugin's folder, `$CLAUDE_PLUGIN_ROOT`. */
  pluginRoot?: string;
}

export interface IssueExtra {
  expected?: string | undefined;
  suggestion?: string | undefined;
  /** Point at the key itself (an unknown field) rather than its value. */
  key?: boolean;
}

export class SettingsIssues {
  readonly list: ConfigIssue[] = [];

  error(source: SettingsSource, path: ConfigPath, message: string, extra: IssueExtra = {}): void {
    this.#add("error", source, path, message, extra);
  }

  warn(source: SettingsSource, path: ConfigPath, message: string, extra: IssueExtra = {}): void {
    this.#add("warning", source, path, message, extra);
  }

  get errors(): number {
    return this.list.filter((issue) => issue.severity === "error").length;
  }

  /** Where `path` is in the source (1:1 for an object). */
  position(source: SettingsSource, path: ConfigPath, key = false): { line: number; column: number } {
    return source.document ? positionOf(source.document, path, { key }) : { line: 1, column: 1 };
  }

  #add(
    severity: "error" | "warning",
    source: SettingsSource,
    path: ConfigPath,
    message: string,
    extra: IssueExtra,
  ): void {
    const { line, column } = this.position(source, path, extra.key);
    const issue: ConfigIssue = { severity, file: source.file, line, column, path, message };
    if (extra.expected) issue.expected = extra.expected;
    if (extra.suggestion) issue.suggestion = extra.suggestion;
    this.list.push(issue);
  }
}
