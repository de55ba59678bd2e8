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
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ConfigIssue, ConfigPath } from "../../../../config/source/config-error.js";
import { programProblem } from "../../../../config/source/program-problem.js";
import { parseSource } from "../../../../config/source/source-map.js";
import { nearest } from "../../../../errors/nearest.js";
import { CLAUDE_EVENTS } from "../events/index.js";
import { commandFile, leadingWords } from "../handlers/command-program.js";
import { programOnPath } from "../handlers/program-on-path.js";
import { checkClaudeHandler, isObject } from "./check-claude-handler.js";
import type { ClaudeHandlerSpec, ClaudeSettingsSource, CommandHandlerSpec } from "./claude-handler-spec.js";
import { compileClaudeMatcher } from "./claude-matcher.js";
import { SettingsIssues, type SettingsSource } from "./settings-issues.js";

export interface ReadClaudeSettingsOptions {
  /** Relative settings paths resolve against it (default: the current folder). */
  baseDir?: string;
  /** `$CLAUDE_PROJECT_DIR`; default: the folder holding the first project file's `.claude/`. */
  projectDir?: string;
  /**
   * The set's failure mode: with `closed`, a command whose program is not on PATH is an
   * error (every call it guards would be blocked); otherwise a warning.
   */
  failure?: "open" | "closed";
  /** Whether `type: "prompt"` handlers can be answered (a model is given); default false. */
  prompts?: boolean;
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

type Source = SettingsSource;

const LEVELS = ["user", "project", "local", "managed"] as const;

/** Claude Code's events that hookwise has no counterpart for: their hooks are reported and skipped. */
const OTHER_CLAUDE_EVENTS: readonly string[] = [
  "PostToolBatch",
  "PermissionDenied",
  "UserPromptExpansion",
  "StopFailure",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Setup",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreModelSwitch",
  "PostModelSwitch",
  "MessageDisplay",
  "DirectoryAdded",
];

function levelOf(file: string): number {
  const name = basename(file);
  if (name === "managed-settings.json") return 3;
  if (name === "settings.local.json") return 2;
  if (resolve(file) === join(homedir(), ".claude", "settings.json")) return 0;
  return 1;
}

class Reader {
  readonly issues = new SettingsIssues();
  /** `$CLAUDE_PROJECT_DIR`, where commands run; set once the sources are loaded. */
  projectDir = ".";
  /** PATH as the commands will see it (the settings' `env` first). */
  pathVariable: string | undefined = process.env.PATH;
  failure: "open" | "closed" = "open";
  prompts = false;

  /** A file read and parsed (JSON, with positions); undefined after reporting why not. */
  load(path: string, baseDir: string): Source | undefined {
    const plugin = pluginOf(resolve(baseDir, path));
    const file = plugin?.file ?? resolve(baseDir, path);
    const shell: Source = {
      origin: path,
      file: path,
      level: levelOf(file),
      data: undefined,
      document: undefined,
      ...(plugin ? { pluginRoot: plugin.root } : {}),
    };
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      const reason =
        code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : String(code ?? error);
      this.issues.error(shell, [], `cannot read Claude Code settings file ${path}: ${reason}`);
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
      this.issues.list.push({
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
      this.issues.error(source, [], "Claude Code settings must be a JSON object", {
        expected: '{ "hooks": { … } }',
      });
      return [];
    }
    if (data.hooks === undefined) return [];
    if (!isObject(data.hooks)) {
      this.issues.error(source, ["hooks"], "hooks must be an object of events", {
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
        this.unsupported(source, event, at, supported);
        continue;
      }
      if (!Array.isArray(groups)) {
        this.issues.error(source, at, `${event} must be a list of matcher groups`, {
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

  /**
   * An event hookwise does not run: a Claude Code event it has no counterpart for is a
   * warning (the file is shared with Claude Code); a misspelling of one is an error, since
   * its hooks would silently never run anywhere. A name close to none (a newer Claude Code
   * event, say) is a warning too.
   */
  unsupported(source: Source, event: string, at: ConfigPath, supported: readonly string[]): void {
    const known = OTHER_CLAUDE_EVENTS.includes(event);
    const suggestion = known ? undefined : nearest(event, [...supported, ...OTHER_CLAUDE_EVENTS]);
    if (suggestion) {
      this.issues.error(source, at, `unknown Claude Code event "${event}"`, {
        expected: `one of ${supported.join(", ")}`,
        suggestion,
        key: true,
      });
      return;
    }
    const what = known ? "unsupported Claude Code event" : "unknown Claude Code event";
    this.issues.warn(source, at, `${what} "${event}": its hooks do not run`, {
      expected: `one of ${supported.join(", ")}`,
      key: true,
    });
  }

  group(source: Source, event: string, group: unknown, at: ConfigPath): ClaudeHandlerSpec[] {
    if (!isObject(group)) {
      this.issues.error(source, at, "a matcher group must be an object", {
        expected: '{ "matcher": "…", "hooks": [ … ] }',
      });
      return [];
    }
    for (const key of Object.keys(group))
      if (key !== "matcher" && key !== "hooks")
        this.issues.warn(source, [...at, key], `unknown field "${key}" of a matcher group (ignored)`, {
          expected: "matcher, hooks",
          suggestion: nearest(key, ["matcher", "hooks"]),
          key: true,
        });
    const { matcher } = group;
    if (matcher !== undefined && typeof matcher !== "string") {
      this.issues.error(source, [...at, "matcher"], "matcher must be a string", {
        expected: 'a tool name, "Edit|Write", a regular expression, or "*"',
      });
      return [];
    }
    const mapping = CLAUDE_EVENTS.get(event)!;
    if (matcher && matcher !== "*" && !mapping.subject)
      this.issues.warn(source, [...at, "matcher"], `${event} takes no matcher; "${matcher}" is ignored`);
    if (mapping.subject) {
      try {
        compileClaudeMatcher(matcher);
      } catch (error) {
        this.issues.error(source, [...at, "matcher"], (error as Error).message);
        return [];
      }
    }
    if (!Array.isArray(group.hooks)) {
      this.issues.error(source, [...at, "hooks"], "a matcher group needs hooks: a list of handlers", {
        expected: '[ { "type": "command", "command": "…" } ]',
      });
      return [];
    }
    const out: ClaudeHandlerSpec[] = [];
    group.hooks.forEach((handler, index) => {
      const spec = checkClaudeHandler(
        this.issues,
        source,
        { event, matcher: mapping.subject ? matcher : undefined, at: [...at, "hooks", index] },
        handler,
        { prompts: this.prompts },
      );
      if (spec && (spec.type !== "command" || this.program(source, spec, [...at, "hooks", index])))
        out.push(source.pluginRoot ? { ...spec, pluginRoot: source.pluginRoot } : spec);
    });
    return out;
  }

  /** A command's program (or an interpreter's script) written as a path must be there to run. */
  program(source: Source, spec: CommandHandlerSpec, at: ConfigPath): boolean {
    const started = commandFile(spec, this.projectDir);
    if (!started) return this.onPath(source, spec, at);
    const problem =
      started.role === "program"
        ? programProblem(started.file)
        : existsSync(started.file)
          ? undefined
          : programProblem(started.file);
    if (!problem) return true;
    const inside = relative(this.projectDir, started.file);
    const shown = inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : started.file;
    this.issues.error(
      source,
      [...at, "command"],
      `the command's ${started.role} ${shown} ${problem.reason}`,
      {
        expected: `a file in the project folder (${this.projectDir}), "$CLAUDE_PROJECT_DIR"/… or relative to it`,
        suggestion: problem.nearest,
      },
    );
    return false;
  }

  /**
   * A program named bare must be on PATH: an error when a failure blocks (the set's mode is
   * `closed`, or the handler's `onFailure` is `block`), since every call it guards would be
   * blocked; a warning otherwise, since every call would pass unchecked.
   */
  onPath(source: Source, spec: CommandHandlerSpec, at: ConfigPath): boolean {
    const program =
      spec.args !== undefined ? spec.command : leadingWords(spec.command, this.projectDir, 1)[0];
    if (!program || program.includes("/") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(program)) return true;
    if (programOnPath(program, this.pathVariable)) return true;
    const closed = (spec.onFailure ?? (this.failure === "closed" ? "block" : "continue")) === "block";
    const message = `the command's program "${program}" is not on PATH: ${
      closed
        ? "every call this hook guards would be blocked"
        : "this hook would fail at every call and let it through"
    }`;
    const extra = { expected: "a program installed on PATH, or a path to it" };
    if (closed) this.issues.error(source, [...at, "command"], message, extra);
    else this.issues.warn(source, [...at, "command"], message, extra);
    return !closed;
  }
}

/**
 * A Claude Code plugin's hooks: its folder (holding `hooks/hooks.json`) or that file
 * itself. The plugin's root is the folder holding `hooks/`, `$CLAUDE_PLUGIN_ROOT` for its
 * commands. Undefined for a settings file.
 */
function pluginOf(path: string): { file: string; root: string } | undefined {
  try {
    if (statSync(path).isDirectory()) {
      const file = join(path, "hooks", "hooks.json");
      return existsSync(file) ? { file, root: path } : undefined;
    }
  } catch {
    return undefined;
  }
  if (basename(path) !== "hooks.json") return undefined;
  const folder = dirname(path);
  return { file: path, root: basename(folder) === "hooks" ? dirname(folder) : folder };
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
        reader.issues.error(source, ["disableAllHooks"], "disableAllHooks must be true or false");
      else disabledBy = data.disableAllHooks ? source : undefined;
    }
    if (data.env !== undefined) {
      if (!isObject(data.env))
        reader.issues.warn(source, ["env"], "env must be an object of strings (ignored)");
      else
        for (const [name, value] of Object.entries(data.env))
          if (typeof value === "string") env[name] = value;
          else reader.issues.warn(source, ["env", name], `env.${name} must be a string (ignored)`);
    }
  }
  reader.projectDir = projectDir;
  reader.pathVariable = env.PATH ?? process.env.PATH;
  reader.failure = options.failure ?? "open";
  reader.prompts = options.prompts ?? false;
  const handlers = ordered.flatMap((source) => reader.handlers(source));
  if (disabledBy) {
    reader.issues.warn(
      disabledBy,
      ["disableAllHooks"],
      `disableAllHooks is true (${LEVELS[disabledBy.level]} settings): no Claude Code hook runs`,
    );
    return { handlers: [], issues: reader.issues.list, env, projectDir };
  }
  return { handlers, issues: reader.issues.list, env, projectDir };
}
