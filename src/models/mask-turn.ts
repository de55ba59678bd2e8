/**
 * What a model answers is masked where the loop reads it: a model that repeats a secret it
 * saw (an API key in an error it was shown, a token a tool returned before masking was
 * possible, a key a user pasted into a system prompt) must not carry it into the transcript,
 * the store, a span, an event or the result. A whole turn is masked once it is read; a
 * streamed turn's text and reasoning deltas are masked as they arrive, each kind as one
 * text (`MaskedTextStream`), so a secret split across deltas is masked whole.
 */
import { hasSecrets, maskSecrets, registeredSecrets } from "../secrets/secret-registry.js";
import type { ModelToolCall, ModelTurn } from "./language-model.js";
import { MaskedTextStream } from "./masked-text-stream.js";
import { type StreamSignal, toolCallOf } from "./read-model-output.js";

function maskCall(call: ModelToolCall): ModelToolCall {
  const rawInput = maskSecrets(call.rawInput);
  if (rawInput === call.rawInput) return call;
  // The marker holds no quote or backslash: masked JSON is still JSON, read again.
  return toolCallOf(call.toolCallId, call.toolName, call.argsParsed ? rawInput : JSON.stringify(rawInput));
}

/** The turn with every registered secret masked in its text, reasoning and tool-call arguments. */
export function maskTurn(turn: ModelTurn): ModelTurn {
  if (!hasSecrets()) return turn;
  turn.text = maskSecrets(turn.text);
  turn.reasoning = maskSecrets(turn.reasoning);
  turn.toolCalls = turn.toolCalls.map(maskCall);
  return turn;
}

type Signal = NonNullable<StreamSignal>;

/** Where a stream's masked signals go. */
export interface SignalSink {
  delta(signal: Signal): void;
}

/**
 * A sink that masks a stream's signals before `sink` sees them: text and reasoning deltas
 * through a `MaskedTextStream` each (an end that could begin a secret waits for the next
 * delta of its kind, or `flush`), a tool call's argument deltas one by one (they are read
 * whole from the turn).
 */
export class MaskedSignals implements SignalSink {
  readonly #sink: SignalSink;
  readonly #text = new MaskedTextStream(maskSecrets, registeredSecrets);
  readonly #reasoning = new MaskedTextStream(maskSecrets, registeredSecrets);

  constructor(sink: SignalSink) {
    this.#sink = sink;
  }

  delta(signal: Signal): void {
    if (signal.type === "text-delta" || signal.type === "reasoning-delta") {
      const stream = signal.type === "text-delta" ? this.#text : this.#reasoning;
      const delta = stream.push(signal.delta);
      if (delta !== "") this.#sink.delta({ type: signal.type, delta });
    } else if (signal.type === "tool-call-delta") {
      this.#sink.delta({ ...signal, delta: maskSecrets(signal.delta) });
    } else this.#sink.delta(signal);
  }

  /** The stream ended: what each kind held goes out. */
  flush(): void {
    const reasoning = this.#reasoning.flush();
    if (reasoning !== "") this.#sink.delta({ type: "reasoning-delta", delta: reasoning });
    const text = this.#text.flush();
    if (text !== "") this.#sink.delta({ type: "text-delta", delta: text });
  }
}
