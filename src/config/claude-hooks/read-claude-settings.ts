/**
 * Reads Claude Code settings (files or objects) into the handlers hookwise runs, checking
 * their structure and reporting every problem with its file, line, column and path.
 *
 * Several sources merge as Claude Code merges its settings files: the hooks of every file
 * run; scalar settings (`disableAllHooks`, each `env` variable) take the value of the most
 * specific file — user (`~/.claude/settings.json`) < project (`.claude/settings.json`) <
 * local (`.claude/settings.local.json`) < managed (`managed-settings.json`). Handlers are
 * ordered the same way (user first), then in file order: the order rewrites chain in.
 *
 * Only `hooks`, `disableAllHooks` and `env` are read; other settings are left alone. Unknown
 * fields of a hook and unsupported events or handler types are warnings (those handlers do
 * not run); a structure hookwise cannot run (a handler without a command, a matcher that is
 * not a valid regular expression, a bad timeout) is an error.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { nearest } from "../../errors/nearest.js";
import type { ConfigIssue, ConfigPath } from "../config-error.js";
import { parseSource, positionOf, type SourceDocument } from "../source-map.js";
import type {
  ClaudeFailure,
  ClaudeHandlerSpec,
  ClaudeSettingsSource,
  CommandHandlerSpec,
  HttpHandlerSpec,
} from "./claude-handler-spec.js";
import { compileClaudeMatcher } from "./claude-matcher.js";
import { CLAUDE_EVENTS } from "./events/index.js";

export interface ReadClaudeSettingsOptions {
  /** Relative settings paths resolve against it (default: the current folder). */
  baseDir?: string;
  /** `$CLAUDE_PROJECT_DIR`; default: the folder holding the first project file's `.claude/`. */
  projectDir?: string;
}

export interface ClaudeSettingsRead {
  /** In run order: by file precedence (user first), then file order. */
  handlers: ClaudeHandlerSpec[];
  /** Errors and warnings, each with its file, line, column and path. */
  issues: ConfigIssue[];
  /** The merged `env` settings, for every hook command. */
  env: Record<string, string>;
  projectDir: string;
}

interface Source {
  origin: string;
  file: string;
  level: number;
  data: unknown;
  document: SourceDocument | undefined;
}

const LEVELS = ["user", "project", "local", "managed"] as const;

const COMMON = ["type", "timeout", "onFailure", "async", "once", "statusMessage", "scope"];
const FIELDS: Readonly<Record<string, readonly string[]>> = {
  command: [...COMMON, "command", "args", "shell"],
  http: [...COMMON, "url", "headers", "allowedEnvVars"],
};
/** Claude Code handler types hookwise does not run (reported, skipped). */
const UNSUPPORTED_TYPES = ["prompt", "agent", "mcp_tool"];
/** Fields hookwise does not honour: a handler using one is skipped rather than run differently. */
const SKIPPING_FIELDS: Readonly<Record<string, string>> = {
  if: "`if` conditions (permission-rule syntax) are not supported",
};
const IGNORED_FIELDS: Readonly<Record<string, string>> = {
  asyncRewake: "asyncRewake is ignored (an async handler's answer is not waited for)",
};

function levelOf(file: string): number {
  const name = basename(file);
  if (name === "managed-settings.json") return 3;
  if (name === "settings.local.json") return 2;
  if (resolve(file) === join(homedir(), ".claude", "settings.json")) return 0;
  return 1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Reader {
  readonly issues: ConfigIssue[] = [];

  report(
    source: Source,
    path: ConfigPath,
    message: string,
    extra: { severity?: "error" | "warning"; expected?: string; suggestion?: string; key?: boolean } = {},
  ): void {
    const { line, column } = source.document
      ? positionOf(source.document, path, { key: extra.key })
      : { line: 1, column: 1 };
    const issue: ConfigIssue = {
      severity: extra.severity ?? "error",
      file: source.file,
      line,
      column,
      path,
      message,
    };
    if (extra.expected) issue.expected = extra.expected;
    if (extra.suggestion) issue.suggestion = extra.suggestion;
    this.issues.push(issue);
  }

  warn(
    source: Source,
    path: ConfigPath,
    message: string,
    extra: { expected?: string; suggestion?: string; key?: boolean } = {},
  ): void {
    this.report(source, path, message, { ...extra, severity: "warning" });
  }

  /** A file read and parsed (JSON, with positions); undefined after reporting why not. */
  load(path: string, baseDir: string): Source | undefined {
    const file = resolve(baseDir, path);
    const shell: Source = {
      origin: path,
      file: path,
      level: levelOf(file),
      data: undefined,
      document: undefined,
    };
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      const reason =
        code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : String(code ?? error);
      this.report(shell, [], `cannot read Claude Code settings file ${path}: ${reason}`);
      return undefined;
    }
    const document = parseSource(text);
    const source: Source = { ...shell, file, document };
    try {
      source.data = JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      // Node names the offset for most mistakes; the YAML parser (a JSON superset) places others.
      const at = /position (\d+)/.exec(message);
      const { line, col } = at
        ? document.lines.linePos(Number(at[1]))
        : (document.document.errors[0]?.linePos?.[0] ?? { line: 1, col: 1 });
      this.issues.push({
        severity: "error",
        file,
        line,
        column: col,
        path: [],
        message: `Claude Code settings must be JSON: ${message}`,
      });
      return undefined;
    }
    return source;
  }

  handlers(source: Source): ClaudeHandlerSpec[] {
    const data = source.data;
    if (!isObject(data)) {
      this.report(source, [], "Claude Code settings must be a JSON object", {
        expected: '{ "hooks": { … } }',
      });
      return [];
    }
    if (data.hooks === undefined) return [];
    if (!isObject(data.hooks)) {
      this.report(source, ["hooks"], "hooks must be an object of events", {
        expected: '{ "PreToolUse": [ { "matcher": "Bash", "hooks": [ … ] } ] }',
      });
      return [];
    }
    const out: ClaudeHandlerSpec[] = [];
    const supported = [...CLAUDE_EVENTS.keys()];
    for (const [event, groups] of Object.entries(data.hooks)) {
      const at = ["hooks", event];
      const mapping = CLAUDE_EVENTS.get(event);
      if (!mapping) {
        this.warn(source, at, `unsupported Claude Code event "${event}": its hooks do not run`, {
          expected: `one of ${supported.join(", ")}`,
          suggestion: nearest(event, supported),
          key: true,
        });
        continue;
      }
      if (!Array.isArray(groups)) {
        this.report(source, at, `${event} must be a list of matcher groups`, {
          expected: '[ { "matcher": "…", "hooks": [ … ] } ]',
        });
        continue;
      }
      groups.forEach((group, index) => {
        out.push(...this.group(source, event, group, [...at, index]));
      });
    }
    return out;
  }

  group(source: Source, event: string, group: unknown, at: ConfigPath): ClaudeHandlerSpec[] {
    if (!isObject(group)) {
      this.report(source, at, "a matcher group must be an object", {
        expected: '{ "matcher": "…", "hooks": [ … ] }',
      });
      return [];
    }
    for (const key of Object.keys(group))
      if (key !== "matcher" && key !== "hooks")
        this.warn(source, [...at, key], `unknown field "${key}" of a matcher group (ignored)`, {
          expected: "matcher, hooks",
          suggestion: nearest(key, ["matcher", "hooks"]),
          key: true,
        });
    const { matcher } = group;
    if (matcher !== undefined && typeof matcher !== "string") {
      this.report(source, [...at, "matcher"], "matcher must be a string", {
        expected: 'a tool name, "Edit|Write", a regular expression, or "*"',
      });
      return [];
    }
    const mapping = CLAUDE_EVENTS.get(event)!;
    if (matcher && matcher !== "*" && !mapping.subject)
      this.warn(source, [...at, "matcher"], `${event} takes no matcher; "${matcher}" is ignored`);
    if (mapping.subject) {
      try {
        compileClaudeMatcher(matcher);
      } catch (error) {
        this.report(source, [...at, "matcher"], (error as Error).message);
        return [];
      }
    }
    if (!Array.isArray(group.hooks)) {
      this.report(source, [...at, "hooks"], "a matcher group needs hooks: a list of handlers", {
        expected: '[ { "type": "command", "command": "…" } ]',
      });
      return [];
    }
    const out: ClaudeHandlerSpec[] = [];
    group.hooks.forEach((handler, index) => {
      const spec = this.handler(source, event, mapping.subject ? matcher : undefined, handler, [
        ...at,
        "hooks",
        index,
      ]);
      if (spec) out.push(spec);
    });
    return out;
  }

  handler(
    source: Source,
    event: string,
    matcher: string | undefined,
    handler: unknown,
    at: ConfigPath,
  ): ClaudeHandlerSpec | undefined {
    if (!isObject(handler)) {
      this.report(source, at, "a handler must be an object", {
        expected: '{ "type": "command", "command": "…" }',
      });
      return undefined;
    }
    const type = handler.type;
    if (typeof type !== "string" || (!FIELDS[type] && !UNSUPPORTED_TYPES.includes(type))) {
      this.report(source, [...at, "type"], `unknown handler type ${JSON.stringify(type)}`, {
        expected: "command or http",
        suggestion: typeof type === "string" ? nearest(type, Object.keys(FIELDS)) : undefined,
      });
      return undefined;
    }
    if (UNSUPPORTED_TYPES.includes(type)) {
      this.warn(source, [...at, "type"], `"${type}" handlers are not supported: this handler does not run`, {
        expected: "command or http",
      });
      return undefined;
    }
    const known = FIELDS[type]!;
    let skip = false;
    for (const key of Object.keys(handler)) {
      if (known.includes(key)) continue;
      if (SKIPPING_FIELDS[key]) {
        this.warn(source, [...at, key], `${SKIPPING_FIELDS[key]}: this handler does not run`, { key: true });
        skip = true;
      } else if (IGNORED_FIELDS[key]) this.warn(source, [...at, key], IGNORED_FIELDS[key]!, { key: true });
      else
        this.warn(source, [...at, key], `unknown field "${key}" of a ${type} handler (ignored)`, {
          expected: known.join(", "),
          suggestion: nearest(key, known),
          key: true,
        });
    }
    const errors = this.issues.filter((issue) => issue.severity === "error").length;
    const base = this.common(source, handler, at);
    const position = source.document ? positionOf(source.document, at) : { line: 1, column: 1 };
    const place = { claudeEvent: event, matcher, origin: source.origin, path: at, ...position };
    let spec: ClaudeHandlerSpec | undefined;
    if (type === "command") {
      const command = this.command(source, handler, at);
      if (command) spec = { ...place, ...base, type: "command", ...command } satisfies CommandHandlerSpec;
    } else {
      const http = this.http(source, handler, at);
      if (http) spec = { ...place, ...base, type: "http", ...http } satisfies HttpHandlerSpec;
    }
    const failed = this.issues.filter((issue) => issue.severity === "error").length > errors;
    return failed || skip ? undefined : spec;
  }

  common(source: Source, handler: Record<string, unknown>, at: ConfigPath) {
    const { timeout, onFailure, scope } = handler;
    if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0))
      this.report(source, [...at, "timeout"], "timeout must be a positive number of seconds", {
        expected: "e.g. 30",
      });
    if (onFailure !== undefined && onFailure !== "block" && onFailure !== "continue")
      this.report(source, [...at, "onFailure"], `onFailure must be "block" or "continue"`, {
        suggestion: typeof onFailure === "string" ? nearest(onFailure, ["block", "continue"]) : undefined,
      });
    if (scope !== undefined && scope !== "all" && scope !== "self" && scope !== "children")
      this.report(source, [...at, "scope"], `scope must be "all", "self" or "children"`);
    for (const flag of ["async", "once"] as const)
      if (handler[flag] !== undefined && typeof handler[flag] !== "boolean")
        this.report(source, [...at, flag], `${flag} must be true or false`);
    return {
      timeout: typeof timeout === "number" ? timeout : undefined,
      onFailure: onFailure as ClaudeFailure | undefined,
      async: handler.async === true,
      once: handler.once === true,
      scope: scope as ClaudeHandlerSpec["scope"],
    };
  }

  command(source: Source, handler: Record<string, unknown>, at: ConfigPath) {
    const { command, args, shell } = handler;
    if (typeof command !== "string" || !command.trim()) {
      this.report(source, [...at, "command"], "a command handler needs a command", {
        expected: 'e.g. "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/check.sh"',
      });
      return undefined;
    }
    if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string"))) {
      this.report(source, [...at, "args"], "args must be a list of strings");
      return undefined;
    }
    if (shell !== undefined && shell !== "bash" && shell !== "sh") {
      this.warn(
        source,
        [...at, "shell"],
        `shell "${String(shell)}" is not supported here: this handler does not run`,
        {
          expected: "bash or sh",
        },
      );
      return undefined;
    }
    return { command, args: args as string[] | undefined, shell: (shell ?? "sh") as "sh" | "bash" };
  }

  http(source: Source, handler: Record<string, unknown>, at: ConfigPath) {
    const { url, headers, allowedEnvVars } = handler;
    if (typeof url !== "string" || !/^https?:\/\/\S+$/.test(url)) {
      this.report(source, [...at, "url"], "an http handler needs a url", { expected: "http(s)://…" });
      return undefined;
    }
    if (
      headers !== undefined &&
      !(isObject(headers) && Object.values(headers).every((v) => typeof v === "string"))
    ) {
      this.report(source, [...at, "headers"], "headers must be an object of strings");
      return undefined;
    }
    if (
      allowedEnvVars !== undefined &&
      !(Array.isArray(allowedEnvVars) && allowedEnvVars.every((name) => typeof name === "string"))
    ) {
      this.report(source, [...at, "allowedEnvVars"], "allowedEnvVars must be a list of variable names");
      return undefined;
    }
    return {
      url,
      headers: (headers ?? {}) as Record<string, string>,
      allowedEnvVars: (allowedEnvVars ?? []) as string[],
    };
  }
}

function projectDirOf(sources: readonly Source[], options: ReadClaudeSettingsOptions): string {
  if (options.projectDir) return resolve(options.projectDir);
  for (const source of sources)
    if (source.level >= 1 && isAbsolute(source.file) && basename(dirname(source.file)) === ".claude")
      return dirname(dirname(source.file));
  return resolve(options.baseDir ?? ".");
}

/** Reads and checks the sources; never throws (problems are `issues`). */
export function readClaudeSettings(
  sources: readonly ClaudeSettingsSource[],
  options: ReadClaudeSettingsOptions = {},
): ClaudeSettingsRead {
  const reader = new Reader();
  const baseDir = resolve(options.baseDir ?? ".");
  const loaded: Source[] = [];
  sources.forEach((source, index) => {
    if (typeof source === "string") {
      const file = reader.load(source, baseDir);
      if (file) loaded.push(file);
    } else {
      const origin = sources.length > 1 ? `settings[${index}]` : "settings";
      loaded.push({ origin, file: `(${origin} object)`, level: 1, data: source, document: undefined });
    }
  });
  // Most specific last: its scalar settings win, its handlers run last.
  const ordered = [...loaded].sort((a, b) => a.level - b.level);
  const projectDir = projectDirOf(ordered, options);
  for (const source of ordered)
    if (isAbsolute(source.file)) {
      const inside = relative(projectDir, source.file);
      source.origin = inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : source.file;
    }
  const env: Record<string, string> = {};
  let disabledBy: Source | undefined;
  for (const source of ordered) {
    const data = isObject(source.data) ? source.data : {};
    if (data.disableAllHooks !== undefined) {
      if (typeof data.disableAllHooks !== "boolean")
        reader.report(source, ["disableAllHooks"], "disableAllHooks must be true or false");
      else disabledBy = data.disableAllHooks ? source : undefined;
    }
    if (data.env !== undefined) {
      if (!isObject(data.env)) reader.warn(source, ["env"], "env must be an object of strings (ignored)");
      else
        for (const [name, value] of Object.entries(data.env))
          if (typeof value === "string") env[name] = value;
          else reader.warn(source, ["env", name], `env.${name} must be a string (ignored)`);
    }
  }
  const handlers = ordered.flatMap((source) => reader.handlers(source));
  if (disabledBy) {
    reader.warn(
      disabledBy,
      ["disableAllHooks"],
      `disableAllHooks is true (${LEVELS[disabledBy.level]} settings): no Claude Code hook runs`,
    );
    return { handlers: [], issues: reader.issues, env, projectDir };
  }
  return { handlers, issues: reader.issues, env, projectDir };
}
