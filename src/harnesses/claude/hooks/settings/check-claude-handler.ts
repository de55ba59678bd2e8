/**
 * One handler of a matcher group, checked: its type (`command`, `http` and — when a model
 * can answer it — `prompt` run; `agent` and `mcp_tool` are reported and skipped), its fields (unknown ones warned; `if`
 * skips the handler rather than running it differently), their types. Returns the handler
 * ready to compile, or undefined when it does not run.
 */

import type { ConfigPath } from "../../../../config/source/config-error.js";
import { nearest } from "../../../../errors/nearest.js";
import type {
  ClaudeFailure,
  ClaudeHandlerSpec,
  CommandHandlerSpec,
  HttpHandlerSpec,
  PromptHandlerSpec,
} from "./claude-handler-spec.js";
import type { SettingsIssues, SettingsSource } from "./settings-issues.js";

const COMMON = ["type", "timeout", "onFailure", "async", "once", "statusMessage", "scope"];
const FIELDS: Readonly<Record<string, readonly string[]>> = {
  command: [...COMMON, "command", "args", "shell"],
  http: [...COMMON, "url", "headers", "allowedEnvVars"],
  prompt: [...COMMON, "prompt", "model"],
};
/** Claude Code handler types hookwise does not run (reported, skipped). */
const UNSUPPORTED_TYPES = ["agent", "mcp_tool"];
/** Fields hookwise does not honour: a handler using one is skipped rather than run differently. */
const SKIPPING_FIELDS: Readonly<Record<string, string>> = {
  if: "`if` conditions (permission-rule syntax) are not supported",
};
const IGNORED_FIELDS: Readonly<Record<string, string>> = {
  asyncRewake: "asyncRewake is ignored (an async handler's answer is not waited for)",
};

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Checked<T> = T | undefined;

function common(
  issues: SettingsIssues,
  source: SettingsSource,
  handler: Record<string, unknown>,
  at: ConfigPath,
) {
  const { timeout, onFailure, scope } = handler;
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0))
    issues.error(source, [...at, "timeout"], "timeout must be a positive number of seconds", {
      expected: "e.g. 30",
    });
  if (onFailure !== undefined && onFailure !== "block" && onFailure !== "continue")
    issues.error(source, [...at, "onFailure"], `onFailure must be "block" or "continue"`, {
      suggestion: typeof onFailure === "string" ? nearest(onFailure, ["block", "continue"]) : undefined,
    });
  if (scope !== undefined && scope !== "all" && scope !== "self" && scope !== "children")
    issues.error(source, [...at, "scope"], `scope must be "all", "self" or "children"`);
  for (const flag of ["async", "once"] as const)
    if (handler[flag] !== undefined && typeof handler[flag] !== "boolean")
      issues.error(source, [...at, flag], `${flag} must be true or false`);
  return {
    timeout: typeof timeout === "number" ? timeout : undefined,
    onFailure: onFailure as ClaudeFailure | undefined,
    async: handler.async === true,
    once: handler.once === true,
    scope: scope as ClaudeHandlerSpec["scope"],
  };
}

function command(
  issues: SettingsIssues,
  source: SettingsSource,
  handler: Record<string, unknown>,
  at: ConfigPath,
): Checked<Pick<CommandHandlerSpec, "command" | "args" | "shell">> {
  const { command, args, shell } = handler;
  if (typeof command !== "string" || !command.trim()) {
    issues.error(source, [...at, "command"], "a command handler needs a command", {
      expected: 'e.g. "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/check.sh"',
    });
    return undefined;
  }
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string"))) {
    issues.error(source, [...at, "args"], "args must be a list of strings");
    return undefined;
  }
  if (shell !== undefined && shell !== "bash" && shell !== "sh") {
    issues.warn(
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

function http(
  issues: SettingsIssues,
  source: SettingsSource,
  handler: Record<string, unknown>,
  at: ConfigPath,
): Checked<Pick<HttpHandlerSpec, "url" | "headers" | "allowedEnvVars">> {
  const { url, headers, allowedEnvVars } = handler;
  if (typeof url !== "string" || !/^https?:\/\/\S+$/.test(url)) {
    issues.error(source, [...at, "url"], "an http handler needs a url", { expected: "http(s)://…" });
    return undefined;
  }
  if (
    headers !== undefined &&
    !(isObject(headers) && Object.values(headers).every((v) => typeof v === "string"))
  ) {
    issues.error(source, [...at, "headers"], "headers must be an object of strings");
    return undefined;
  }
  if (
    allowedEnvVars !== undefined &&
    !(Array.isArray(allowedEnvVars) && allowedEnvVars.every((name) => typeof name === "string"))
  ) {
    issues.error(source, [...at, "allowedEnvVars"], "allowedEnvVars must be a list of variable names");
    return undefined;
  }
  return {
    url,
    headers: (headers ?? {}) as Record<string, string>,
    allowedEnvVars: (allowedEnvVars ?? []) as string[],
  };
}

/** Warns about the fields a handler of `type` does not know; true when one of them skips it. */
function checkFields(
  issues: SettingsIssues,
  source: SettingsSource,
  handler: Record<string, unknown>,
  type: string,
  at: ConfigPath,
): boolean {
  const known = FIELDS[type]!;
  let skip = false;
  for (const key of Object.keys(handler)) {
    if (known.includes(key)) continue;
    if (SKIPPING_FIELDS[key]) {
      issues.warn(source, [...at, key], `${SKIPPING_FIELDS[key]}: this handler does not run`, { key: true });
      skip = true;
    } else if (IGNORED_FIELDS[key]) issues.warn(source, [...at, key], IGNORED_FIELDS[key]!, { key: true });
    else
      issues.warn(source, [...at, key], `unknown field "${key}" of a ${type} handler (ignored)`, {
        expected: known.join(", "),
        suggestion: nearest(key, known),
        key: true,
      });
  }
  return skip;
}

function prompt(
  issues: SettingsIssues,
  source: SettingsSource,
  handler: Record<string, unknown>,
  at: ConfigPath,
): Checked<Pick<PromptHandlerSpec, "prompt" | "model">> {
  const { prompt: text, model } = handler;
  if (typeof text !== "string" || !text.trim()) {
    issues.error(source, [...at, "prompt"], "a prompt handler needs a prompt", {
      expected: 'e.g. "Is every task done? $ARGUMENTS"',
    });
    return undefined;
  }
  if (model !== undefined && (typeof model !== "string" || !model.trim())) {
    issues.error(source, [...at, "model"], "model must be the name of a model of the config");
    return undefined;
  }
  return { prompt: text, model: model as string | undefined };
}

export function checkClaudeHandler(
  issues: SettingsIssues,
  source: SettingsSource,
  place: { event: string; matcher: string | undefined; at: ConfigPath },
  handler: unknown,
  options: { prompts: boolean } = { prompts: true },
): ClaudeHandlerSpec | undefined {
  const { at } = place;
  if (!isObject(handler)) {
    issues.error(source, at, "a handler must be an object", {
      expected: '{ "type": "command", "command": "…" }',
    });
    return undefined;
  }
  const type = handler.type;
  if (typeof type !== "string" || (!FIELDS[type] && !UNSUPPORTED_TYPES.includes(type))) {
    issues.error(source, [...at, "type"], `unknown handler type ${JSON.stringify(type)}`, {
      expected: "command, http or prompt",
      suggestion: typeof type === "string" ? nearest(type, Object.keys(FIELDS)) : undefined,
    });
    return undefined;
  }
  if (type === "prompt" && !options.prompts) {
    issues.warn(
      source,
      [...at, "type"],
      `"prompt" handlers need a model to answer them (claudeHooks' answerPrompt option; a config's models): this handler does not run`,
    );
    return undefined;
  }
  if (UNSUPPORTED_TYPES.includes(type)) {
    issues.warn(source, [...at, "type"], `"${type}" handlers are not supported: this handler does not run`, {
      expected: "command, http or prompt",
    });
    return undefined;
  }
  const skip = checkFields(issues, source, handler, type, at);
  const errors = issues.errors;
  const base = {
    claudeEvent: place.event,
    matcher: place.matcher,
    origin: source.origin,
    path: at,
    ...issues.position(source, at),
    ...common(issues, source, handler, at),
  };
  let spec: ClaudeHandlerSpec | undefined;
  if (type === "command") {
    const checked = command(issues, source, handler, at);
    if (checked) spec = { ...base, type: "command", ...checked } satisfies CommandHandlerSpec;
  } else if (type === "prompt") {
    const checked = prompt(issues, source, handler, at);
    if (checked) spec = { ...base, type: "prompt", ...checked } satisfies PromptHandlerSpec;
  } else {
    const checked = http(issues, source, handler, at);
    if (checked) spec = { ...base, type: "http", ...checked } satisfies HttpHandlerSpec;
  }
  return skip || issues.errors > errors ? undefined : spec;
}
