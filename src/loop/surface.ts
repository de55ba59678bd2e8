/**
 * The one difference between `run()` and `stream()`: how a model turn is issued
 * (doGenerate vs doStream) and whether items are surfaced live. Everything else is the
 * shared drive loop.
 */
import {
  type CallOptions,
  callableModel,
  type LanguageModel,
  type ModelTurn,
} from "../models/language-model.js";
import { MaskedSignals, maskTurn } from "../models/mask-turn.js";
import {
  foldStreamPart,
  readGenerateResult,
  type StreamSignal,
  startStreamFold,
} from "../models/read-model-output.js";
import { hasSecrets } from "../secrets/secret-registry.js";
import type { AgentEvent } from "./run-result.js";

export interface Surface {
  readonly streaming: boolean;
  /** Each hook firing is also a live `hook` event (streaming only; see `StreamOptions.hookEvents`). */
  readonly hookEvents: boolean;
  /** A plain function, called without its surface as `this` (the loop hands it on as it is). */
  readonly emit: (event: AgentEvent) => void;
  /**
   * Issues one attempt; `sink` sees text, reasoning and tool-input deltas as they arrive.
   * Its answer is read with `turnOf` where it is awaited (no promise chained to read it).
   */
  callModel(model: LanguageModel, options: CallOptions, sink: DeltaSink): PromiseLike<unknown>;
  /** The model turn of what `callModel`'s promise resolved to (throws when it is not one). */
  turnOf(answer: unknown): ModelTurn;
}

/** Where a streamed attempt's deltas go (the attempt itself: no closure per attempt). */
export interface DeltaSink {
  delta(signal: NonNullable<StreamSignal>): void;
}

function ignore(_event: AgentEvent): void {}

function generate(model: LanguageModel, options: CallOptions): PromiseLike<unknown> {
  return callableModel(model).doGenerate(options);
}

/** A generated answer's turn, every registered secret masked (where a model's answer enters the run). */
function readTurn(answer: unknown): ModelTurn {
  return maskTurn(readGenerateResult(answer));
}

/** The stream surface's answer is its turn already (folded from the stream as it came). */
function asTurn(answer: unknown): ModelTurn {
  return answer as ModelTurn;
}

/** `run()`'s surface when nothing listens to its events: one for every run (it keeps no state). */
const GENERATE: Surface = Object.freeze({
  streaming: false,
  hookEvents: false,
  emit: ignore,
  callModel: generate,
  turnOf: readTurn,
});

export function generateSurface(emit?: (event: AgentEvent) => void): Surface {
  if (emit === undefined) return GENERATE;
  return { streaming: false, hookEvents: false, emit, callModel: generate, turnOf: readTurn };
}

export function streamSurface(emit: (event: AgentEvent) => void, hookEvents = true): Surface {
  return {
    streaming: true,
    hookEvents,
    emit,
    turnOf: asTurn,
    async callModel(model, options, sink) {
      const { stream } = await callableModel(model).doStream(options);
      const fold = startStreamFold();
      // Deltas are masked as they come (where a model's answer enters the run), the turn once read.
      const masked = hasSecrets() ? new MaskedSignals(sink) : undefined;
      const out: DeltaSink = masked ?? sink;
      const reader = (stream as ReadableStream<{ type: string }>).getReader();
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const signal = foldStreamPart(fold, value);
          if (signal === undefined) continue;
          if (signal.type === "error") throw signal.error;
          out.delta(signal);
        }
        masked?.flush();
        finished = true;
      } finally {
        // Leaving early (an error part, a throwing consumer): cancel, so the provider's
        // connection is closed. The lock is never released: nothing reads the stream after
        // this, and a release makes a rejected promise with a new error (its stack trace
        // captured) on every attempt.
        if (!finished) reader.cancel().catch(() => {});
      }
      return maskTurn(fold.turn);
    },
  };
}
