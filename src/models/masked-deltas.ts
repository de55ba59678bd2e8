/**
 * A run's text and reasoning deltas with secrets masked across them. A scrubber sees one
 * frame or one write at a time, and a model that repeats a secret streams it a few
 * characters per delta, so each alone carries only a piece. Here the deltas of each kind are
 * masked as one text (`MaskedTextStream`): a delta's end that could begin a secret waits for
 * the next delta of its kind. It waits across `hook` events (hooks fire between deltas, on
 * `text_delta` for one) and the other kind's deltas; any other event (a tool call, the step's
 * end) ends the text, so it first lets out what waits, and the order of events is kept.
 */
import { MaskedTextStream } from "./masked-text-stream.js";

type DeltaType = "text-delta" | "reasoning-delta";

/** The events this reads: a run's stream events (deltas carry `step` and `delta`). */
type StreamEvent = { type: string };
type DeltaEvent = { type: DeltaType; step: number; delta: string };

function isDelta(event: StreamEvent): event is DeltaEvent {
  return event.type === "text-delta" || event.type === "reasoning-delta";
}

export class MaskedDeltas<E extends StreamEvent> {
  readonly #streams: Record<DeltaType, MaskedTextStream>;
  /** The step of the last delta of each kind: where what it holds goes out. */
  readonly #steps: Record<DeltaType, number> = { "text-delta": 0, "reasoning-delta": 0 };

  /** `mask` replaces every whole secret in a text; `secrets` lists them (read at each delta). */
  constructor(mask: (text: string) => string, secrets: () => Iterable<string>) {
    this.#streams = {
      "text-delta": new MaskedTextStream(mask, secrets),
      "reasoning-delta": new MaskedTextStream(mask, secrets),
    };
  }

  /** The events to send for `event`, in order (none while a delta's text is all held). */
  take(event: E): E[] {
    if (isDelta(event)) {
      this.#steps[event.type] = event.step;
      const delta = this.#streams[event.type].push(event.delta);
      return delta === "" ? [] : [{ ...event, delta }];
    }
    if (event.type === "hook") return [event];
    const out = [...this.#flush("reasoning-delta"), ...this.#flush("text-delta")];
    out.push(event);
    return out;
  }

  #flush(type: DeltaType): E[] {
    const delta = this.#streams[type].flush();
    return delta === "" ? [] : [{ type, step: this.#steps[type], delta } as DeltaEvent as unknown as E];
  }
}
