/**
 * `claudeHooks(settings)`: Claude Code hooks — a `.claude/settings.json` (or several, merged
 * as Claude Code merges them), or the same as an object — compiled into ordinary hookwise
 * hooks, their scripts run unchanged. The result is a list of hooks to pass to `createAgent`
 * (`hooks: [...claudeHooks(".claude/settings.json")]`), carrying what it compiled (`handlers`,
 * for `explain`), the warnings found (`warnings`), and `close()`.
 */

import { ConfigError, type ConfigIssue, formatIssue } from "../../../config/source/config-error.js";
import type { AnyHook } from "../../../hooks/define-hook.js";
import type { HookLogger } from "../../../hooks/hook-context.js";
import { listenForNotifications, type NotificationSource } from "./claude-notifications.js";
import { ClaudeTools, type ToolSource } from "./claude-tools.js";
import { ClaudeTranscripts } from "./claude-transcripts.js";
import {
  type ClaudeHandlerInfo,
  type ClaudeRuntime,
  compileClaudeHandler,
} from "./compile-claude-handler.js";
import { contextDeliveryHook } from "./context-queue.js";
import { CLAUDE_EVENTS } from "./events/index.js";
import type { PromptAnswerer } from "./handlers/run-prompt-handler.js";
import type { ClaudeSettingsSource } from "./settings/claude-handler-spec.js";
import { readClaudeSettings } from "./settings/read-claude-settings.js";

export interface ClaudeHooksOptions {
  /** Relative settings paths resolve against it. Default: the current folder. */
  baseDir?: string;
  /**
   * `$CLAUDE_PROJECT_DIR`, the input's `cwd` and the commands' working folder. Default: the
   * folder holding the first project settings file's `.claude/`, else `baseDir`.
   */
  projectDir?: string;
  /**
   * What a crash, a timeout or unusable output does when a handler's own `onFailure` does not
   * say: `open` (default, Claude Code's behaviour) lets the operation through, logged;
   * `closed` blocks it (the tool does not run, the run does not start…), naming the hook.
   */
  failure?: "open" | "closed";
  /** The agent's tools, for the names and shapes Claude Code hooks know them by (aliases). */
  tools?: ToolSource;
  /**
   * Where session transcripts are written as JSONL (`transcript_path`). Default: a new
   * folder of this process's own in the OS temp folder, readable by its owner only.
   */
  transcriptDir?: string;
  /** `Notification` handlers run for each notification published here (a config's `notify` bus). */
  notifications?: NotificationSource;
  /**
   * Answers `type: "prompt"` handlers: given the prompt (and the model the handler names),
   * a model's text. Without it such handlers are reported and do not run. A config answers
   * them with its models (the handler's `model`, else the config's default).
   */
  answerPrompt?: PromptAnswerer;
  /** Where warnings and hooks' messages go. Default: the console. */
  log?: HookLogger;
  /** Called with each warning found in the settings. Default: `log.warn` of the formatted warning. */
  onWarning?: (issue: ConfigIssue) => void;
}

/** The hooks, with what they came from. */
export interface ClaudeHookSet extends Array<AnyHook> {
  /** Each compiled handler: its hook name, Claude Code event, hookwise event, matcher, command. */
  readonly handlers: readonly ClaudeHandlerInfo[];
  /** Unsupported events and handler types, unknown fields: what does not run, and why. */
  readonly warnings: readonly ConfigIssue[];
  readonly projectDir: string;
  /**
   * Stops listening for notifications; resolves once the Notification handlers still running
   * are done. The transcripts' own temp folder (when no `transcriptDir` was given) is removed.
   */
  close(): Promise<void>;
}

const CONSOLE: HookLogger = {
  debug() {},
  info: (message) => console.error(message),
  warn: (message) => console.error(`[hookwise] ${message}`),
  error: (message) => console.error(`[hookwise] ${message}`),
};

/** The name of the hook delivering tool hooks' context to the model (one per set). */
export const CONTEXT_HOOK = "claude-hooks:additionalContext";

/**
 * Compiles Claude Code settings into hookwise hooks. Throws a `ConfigError` (every error with
 * its file, line and column) when the settings cannot run; warnings never throw.
 */
export function claudeHooks(
  source: ClaudeSettingsSource | readonly ClaudeSettingsSource[],
  options: ClaudeHooksOptions = {},
): ClaudeHookSet {
  const sources = Array.isArray(source)
    ? (source as readonly ClaudeSettingsSource[])
    : [source as ClaudeSettingsSource];
  const read = readClaudeSettings(sources, {
    ...(options.baseDir ? { baseDir: options.baseDir } : {}),
    ...(options.projectDir ? { projectDir: options.projectDir } : {}),
    ...(options.failure ? { failure: options.failure } : {}),
    prompts: options.answerPrompt !== undefined,
  });
  const errors = read.issues.filter((issue) => issue.severity === "error");
  if (errors.length) throw new ConfigError(read.issues);
  const warnings = read.issues.filter((issue) => issue.severity === "warning");
  const log = options.log ?? CONSOLE;
  const onWarning = options.onWarning ?? ((issue: ConfigIssue) => log.warn(formatIssue(issue)));
  for (const warning of warnings) onWarning(warning);

  const tools = new ClaudeTools(options.tools);
  const runtime: ClaudeRuntime = {
    projectDir: read.projectDir,
    env: { ...process.env, ...read.env, CLAUDE_PROJECT_DIR: read.projectDir },
    failure: options.failure ?? "open",
    tools,
    transcripts: new ClaudeTranscripts(options.transcriptDir, tools),
    log,
    answerPrompt: options.answerPrompt,
  };
  const hooks: AnyHook[] = [];
  const handlers: ClaudeHandlerInfo[] = [];
  let toolContext = false;
  for (const spec of read.handlers) {
    const event = CLAUDE_EVENTS.get(spec.claudeEvent)!;
    const compiled = compileClaudeHandler(spec, event, runtime);
    hooks.push(...compiled.hooks);
    handlers.push(compiled.info);
    if (event.subject && event.scopable) toolContext = true;
  }
  if (toolContext) hooks.push(contextDeliveryHook(CONTEXT_HOOK));
  const notifications = read.handlers.filter((spec) => spec.claudeEvent === "Notification");
  const listener =
    options.notifications && notifications.length
      ? listenForNotifications(notifications, options.notifications, runtime)
      : undefined;
  return Object.defineProperties(hooks, {
    handlers: { value: handlers },
    warnings: { value: warnings },
    projectDir: { value: read.projectDir },
    close: {
      value: async () => {
        await listener?.close();
        runtime.transcripts.dispose();
      },
    },
  }) as ClaudeHookSet;
}
