/** The context every hook receives (DESIGN §6, §11). */
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
  /** The run's index in its session (0 = first run): seed 003's `turn`. */
  readonly turn: number;
}
