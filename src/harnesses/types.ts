/**
 * What every harness protocol shares: a harness's hook event read into one neutral shape
 * (`HarnessEvent`), hookwise's answer to it (`HarnessVerdict`), and how each harness writes
 * that answer back (`HarnessAnswer`: an exit code, stdout and stderr).
 */

export const HARNESS_NAMES = ["claude", "codex", "gemini", "cursor"] as const;

export type HarnessName = (typeof HARNESS_NAMES)[number];

/**
 * The hookwise event a harness event runs as. `notification` runs no hook (hookwise has no
 * such event); it is recorded only.
 */
export type HarnessEventKind =
  | "session_start"
  | "session_end"
  | "run_start"
  | "run_end"
  | "model_request"
  | "model_response"
  | "tool_call"
  | "tool_result"
  | "tool_error"
  | "pre_compact"
  | "approval_request"
  | "notification";

/** One tool of a harness, as its hooks name it. */
export interface HarnessToolSpec {
  /** The harness's own name (`Bash`, `run_shell_command`): the tool's function name in hookwise. */
  readonly name: string;
  /**
   * The name the same kind of tool has in every harness (`shell` for `Bash`, `exec_command`'s
   * `Bash` and `run_shell_command`): the tool's qualified name, so one rule covers them all.
   */
  readonly family?: string;
  readonly description: string;
  /** The JSON Schema of its `tool_input` (what a rewrite is checked against). */
  readonly input: Record<string, unknown>;
}

/** The tool an event is about. */
export interface HarnessToolUse {
  /** The harness's name for it (`Bash`, `mcp__github__create_issue`). */
  readonly name: string;
  /** Its `tool_input`. */
  readonly input: unknown;
  /** The harness's id of the call, or one made from the event when it gives none. */
  readonly callId: string;
  /** `tool_result`: what the tool answered (`tool_response`). */
  readonly response?: unknown;
  /** `tool_error`: why it failed. */
  readonly error?: string;
  /**
   * An MCP tool the harness named without its server, whose server could not be told
   * (Cursor's `beforeMCPExecution` with a url or command no MCP settings file has): policies
   * that name MCP tools by server cannot decide it.
   */
  readonly serverUnknown?: boolean;
}

/** A harness's hook event, read. */
export interface HarnessEvent {
  readonly harness: HarnessName;
  /** The harness's own event name (`PreToolUse`, `BeforeTool`, `beforeShellExecution`). */
  readonly name: string;
  readonly kind: HarnessEventKind;
  /** The harness's session (Claude Code's `session_id`, Cursor's `conversation_id`). */
  readonly sessionId: string;
  readonly cwd: string | undefined;
  readonly tool?: HarnessToolUse;
  /** `run_start`: the user's prompt; `run_end`: the prompt of the turn, when given. */
  readonly prompt?: string;
  /** `run_end`: the agent's last answer, when the harness sends it. */
  readonly output?: string;
  /** `run_end`: the agent is already continuing because a stop hook blocked it. */
  readonly stopActive?: boolean;
  /** Why a session started or ended, what triggered a compaction, a notification's text. */
  readonly detail?: string;
  /** The event as the harness sent it. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * hookwise's answer to one event, before a harness writes it in its own format.
 * `decision`: `deny` blocks what the event is about (the tool, the prompt, the stop: the agent
 * goes on with `reason`), `ask` hands the decision to the harness's own prompt, `allow` lets
 * it through without the harness asking, `none` leaves the harness's own rules to decide.
 */
export interface HarnessVerdict {
  decision: "allow" | "deny" | "ask" | "none";
  /** Why (a deny's or an ask's reason: the model or the user sees it). */
  reason?: string;
  /** The hook (or policy) that decided. */
  hook?: string;
  /** `tool_call`: the arguments the tool is to run with, when a hook rewrote them. */
  updatedInput?: unknown;
  /** `tool_result`: the result the model is to see, when a hook rewrote it. */
  updatedOutput?: unknown;
  /** Text for the model beside the event (additional context). */
  context?: string[];
  /** A hook ended the run: the harness stops the agent with this reason. */
  stop?: string;
  /** The verdict is hookwise failing closed (a hook or the config failed), not a hook's choice. */
  failed?: boolean;
}

/** What `hookwise hook` prints and how it exits. */
export interface HarnessAnswer {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

/** Where a harness keeps its hooks, and how an entry that runs hookwise looks there. */
export interface HarnessSettings {
  /**
   * The settings file of each scope: `project` and `local` relative to the project's folder,
   * `user` relative to the home folder; undefined: the harness has no such scope.
   */
  readonly files: Readonly<Record<"project" | "user" | "local", string | undefined>>;
  /** The harness's events that run each hookwise event (setup registers those the config uses). */
  readonly eventsFor: Readonly<Partial<Record<HarnessEventKind, readonly string[]>>>;
  /** The entry added under `hooks.<event>` of the file: runs `command` for that event. */
  group(command: string, event: string): Record<string, unknown>;
  /** The commands of a group under `hooks.<event>` (how setup finds the entries it added). */
  commandsOf(group: unknown): string[];
  /** Top-level keys the file needs besides `hooks` (Cursor's `version: 1`). */
  readonly fileDefaults?: Readonly<Record<string, unknown>>;
  /** The variable the harness sets to the project's folder for hook commands, if any. */
  readonly projectDirVariable?: string;
}

export interface HarnessProtocol {
  readonly name: HarnessName;
  /** The product's name for people (`Claude Code`). */
  readonly label: string;
  /** The harness's event names hookwise answers, each with the hookwise event it runs as. */
  readonly events: Readonly<Record<string, HarnessEventKind>>;
  readonly tools: readonly HarnessToolSpec[];
  /** Its shell tool's name (for docs and messages). */
  readonly shellTool: string;
  readonly settings: HarnessSettings;
  /** The event on stdin, read; throws `HarnessInputError` when it is not one this harness sends. */
  parse(payload: Readonly<Record<string, unknown>>): HarnessEvent;
  /** The verdict in the harness's own format. */
  answer(event: HarnessEvent, verdict: HarnessVerdict): HarnessAnswer;
  /**
   * For a harness that sends one tool call as two events (Cursor: `preToolUse`, then
   * `beforeShellExecution` for the same command): what identifies the call in both, so the
   * second is answered as the first was, its hooks not run (nor counted) twice. Undefined:
   * the event is decided on its own.
   */
  sameCall?(event: HarnessEvent): string | undefined;
  /**
   * Events, besides `session_start`, whose end (`flow.terminate`) the harness does not honour:
   * it goes on with the session whatever the hook answers (Gemini CLI's PreCompress). An end
   * decided there is held by hookwise, which refuses the session's later prompts and tool calls.
   */
  readonly stopIgnoredAt?: readonly HarnessEventKind[];
  /** A block when the event could not even be read (malformed stdin, an unknown event). */
  refuse(reason: string, eventName: string | undefined): HarnessAnswer;
}
