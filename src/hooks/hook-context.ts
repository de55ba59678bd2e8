/** The context every hook receives. */
import type { ModelMessage } from "../events/payloads.js";
import type { Scratchpad } from "./scratchpad.js";

export interface HookLogger {
  debug(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export interface HookContext {
  readonly sessionId: string;
  readonly runId: string;
  /** 0-based step index; -1 before the first step. */
  readonly step: number;
  /** 1-based attempt of the current provider request (1 outside model events). */
  readonly attempt: number;
  readonly agentName: string;
  readonly agentPath: readonly string[];
  readonly isStreaming: boolean;
  /** Cancelled when the run is aborted. */
  readonly signal: AbortSignal;
  readonly scratch: {
    readonly session: Scratchpad;
    readonly run: Scratchpad;
    readonly step: Scratchpad;
    readonly operation: Scratchpad;
  };
  readonly log: HookLogger;
  /** The run's user input (after `run_start` rewrites). */
  readonly input: string;
  /** The session transcript as committed so far (read-only; never the outbound copy). */
  readonly messages: readonly ModelMessage[];
  /** Token usage of the run so far, as providers reported it. */
  readonly usage: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly totalTokens: number;
  };
  /** The run's index in its session (0 = first run), the `turn` of config templates. */
  readonly turn: number;
  /** How full the model's context window is (token accounting). Set by the loop. */
  readonly contextWindow?: ContextWindowUsage;
  /** The agent's model, for hooks that need one (summaries, judges). Set by the loop. */
  readonly model?: HookModel;
}

/** How full the model's context window is: provider-reported tokens where known, else estimated. */
export interface ContextWindowUsage {
  /** The model's context window, in tokens. */
  readonly window: number;
  /**
   * Tokens a request with `messages` as history takes, system prompt and tool specs
   * included (default: the transcript). The provider's reported count for what was
   * already sent, a tokenizer estimate for the rest.
   */
  tokens(messages?: readonly ModelMessage[]): number;
  /** `tokens(messages) / window`. */
  pressure(messages?: readonly ModelMessage[]): number;
}

export interface ModelCallRequest {
  system?: string;
  messages: readonly ModelMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  /** Another model than the agent's: a name the agent's `models` option resolves. */
  model?: string;
}

export interface ModelCallResult {
  text: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
}

/**
 * The agent's model as a hook can use it. A call is not a step: no `model_request` hooks,
 * not in `RunResult.requests`; its usage is added to the run's. Aborted with the run.
 */
export interface HookModel {
  readonly provider: string;
  readonly modelId: string;
  generate(request: ModelCallRequest): Promise<ModelCallResult>;
}
