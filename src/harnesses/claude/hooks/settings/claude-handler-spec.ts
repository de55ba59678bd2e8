/**
 * One handler of a Claude Code settings file, checked and placed: what the compiler turns
 * into hookwise hooks. Settings sources (files or objects) are read by read-claude-settings.ts.
 */
import type { ConfigPath } from "../../../../config/source/config-error.js";

/** A settings file's path, or a settings object (`{ hooks: { PreToolUse: [...] } }`). */
export type ClaudeSettingsSource = string | ClaudeSettings;

/** The part of Claude Code's `settings.json` hookwise reads; other keys are left alone. */
export interface ClaudeSettings {
  hooks?: Record<string, unknown>;
  disableAllHooks?: boolean;
  /** Environment variables for every hook command (Claude Code applies them to its session). */
  env?: Record<string, string>;
  [key: string]: unknown;
}

/** `block`: a crash, a timeout or unusable output blocks what the hook guards; `continue` lets it through. */
export type ClaudeFailure = "block" | "continue";

interface HandlerBase {
  /** Claude Code's event name (`PreToolUse`). */
  readonly claudeEvent: string;
  /** The matcher group's `matcher` (`undefined`, `""` and `"*"` match everything). */
  readonly matcher: string | undefined;
  /** The settings source, for names and messages (`.claude/settings.json`, or `settings`). */
  readonly origin: string;
  /** Where in that source (`hooks.PreToolUse[0].hooks[1]`), with its line and column. */
  readonly path: ConfigPath;
  readonly line: number;
  readonly column: number;
  /** Seconds; undefined for Claude Code's default of the event. */
  readonly timeout: number | undefined;
  /** The handler's own `onFailure`; undefined follows the set's default. */
  readonly onFailure: ClaudeFailure | undefined;
  /** `async: true`: runs without blocking anything; its answer is not waited for. */
  readonly async: boolean;
  /** `once: true`: runs once per session. */
  readonly once: boolean;
  /** hookwise's extension: `self` keeps a tool hook off sub-agents' calls. */
  readonly scope: "all" | "self" | "children" | undefined;
  /** A plugin's handler: the plugin's folder, `$CLAUDE_PLUGIN_ROOT` and `$CLAUDE_PLUGIN_DATA`. */
  readonly pluginRoot?: string | undefined;
}

export interface CommandHandlerSpec extends HandlerBase {
  readonly type: "command";
  /** The user's command line, run as `/bin/sh -c <command>` (or `bash -c` with `shell: bash`). */
  readonly command: string;
  /** Exec form: `command` is the program, run with these arguments and no shell. */
  readonly args: readonly string[] | undefined;
  readonly shell: "sh" | "bash";
}

export interface HttpHandlerSpec extends HandlerBase {
  readonly type: "http";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The only environment variables `$VAR` / `${VAR}` in header values may read. */
  readonly allowedEnvVars: readonly string[];
}

/** `type: "prompt"`: a model of the config is asked, and answers `{ "ok": …, "reason": … }`. */
export interface PromptHandlerSpec extends HandlerBase {
  readonly type: "prompt";
  /** The question; `$ARGUMENTS` is replaced by the event's JSON (appended when absent). */
  readonly prompt: string;
  /** A model of the config (a name under `models:` or `provider:model-id`); default: its default model. */
  readonly model: string | undefined;
}

export type ClaudeHandlerSpec = CommandHandlerSpec | HttpHandlerSpec | PromptHandlerSpec;
