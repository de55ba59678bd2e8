/**
 * What conditions, actions and templates see when a config hook fires: the event, the
 * hook context, lazily computed run statistics, and the tool / error views.
 */
import type { AnyEventPayload, ModelMessage } from "../../events/payloads.js";
import type { HookContext, HookLogger } from "../../hooks/hook-context.js";
import type { LanguageServers } from "../../lsp/language-servers.js";
import type { StateStore } from "../../state/state-store.js";
import type { NotificationBus } from "../notification-bus.js";

/** The variables of conditions and templates: `turn` is the run's index in its session (0 = first run). */
export interface RunStats {
  readonly turn: number;
  /** Tool calls in the session transcript so far. */
  readonly tools: number;
  readonly messages: number;
  /** Estimated tokens of the transcript (provider usage when reported). */
  readonly tokens: number;
  /** tokens / context window (0..1+). */
  readonly pressure: number;
  readonly max_turns: number;
}

export interface ToolView {
  name: string;
  fqn: string;
  params: unknown;
  result?: unknown;
  error?: string;
}

export interface Evaluation {
  readonly event: AnyEventPayload;
  readonly context: HookContext;
  readonly stats: RunStats;
  readonly tool: ToolView | undefined;
  readonly error: { type: string; message: string } | undefined;
  readonly messages: readonly ModelMessage[];
  /** The id of the config hook being evaluated. */
  readonly hookId: string;
  /**
   * Aborted when the run is aborted or the hook's own timeout passes, so what an action
   * started (a `shell` command and its children) ends with the hook. Default: the run's.
   */
  readonly signal?: AbortSignal;
}

/** What actions may use beyond the evaluation: the outside world, injected by the loader. */
export interface ActionServices {
  readonly log: HookLogger;
  readonly notifications: NotificationBus;
  readonly store: StateStore;
  /** The folder of the config file (`{{workspace}}`). */
  readonly workspace: string;
  /**
   * Calls a tool of the config's toolsets by qualified (`toolset.tool`) or function name,
   * validating `args` against its input schema first. Throws on an unknown tool, invalid
   * arguments, or when the tool throws.
   */
  callTool(name: string, args: unknown, evaluation: Evaluation): Promise<unknown>;
  /**
   * The workspace's language servers, for `lsp_diagnose` and the `lsp.*` tools: started on
   * first use, reused, closed with the config (loadConfig provides them).
   */
  languageServers?: LanguageServers;
  /** The clock (ms since the epoch) of TTLs; default `Date.now`. Tests inject one. */
  now?(): number;
}
