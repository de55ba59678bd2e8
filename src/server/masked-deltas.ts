/**
 * A run's text and reasoning deltas with secrets masked across them. The scrubber sees one
 * frame at a time, and a model that repeats a secret streams it a few characters per delta,
 * so each frame alone carries only a piece. Here the deltas of each kind are masked as one
 * text (`MaskedTextStream`): a delta's end that could begin a secret waits for the next
 * delta, and any other event first lets out what waits, so the order of events is kept.
 */
import { MaskedTextStream } from "../models/masked-text-stream.js";
import type { ServerEvent } from "./run-timeline.js";
import type { Scrubber } from "./secret-scrubber.js";

type DeltaType = "text-delta" | "reasoning-delta";

export class MaskedDeltas {
  readonly #streams: Record<DeltaType, MaskedTextStream>;
  /** The step of the last delta of each kind: where what it holds goes out. */
  readonly #steps: Record<DeltaType, number> = { "text-delta": 0, "reasoning-delta": 0 };
  readonly #active: boolean;

  constructor(scrub: Scrubber) {
    const secrets = () => scrub.secrets;
    this.#streams = {
      "text-delta": new MaskedTextStream(scrub, secrets),
      "reasoning-delta": new MaskedTextStream(scrub, secrets),
    };
    this.#active = scrub.secrets.length > 0;
  }

  /** The events to send for `event`, in order (none while a delta's text is all held). */
  take(event: ServerEvent): ServerEvent[] {
    if (!this.#active) return [event];
    if (event.type === "text-delta" || event.type === "reasoning-delta") {
      const other = event.type === "text-delta" ? "reasoning-delta" : "text-delta";
      const out = this.#flush(other);
      this.#steps[event.type] = event.step;
      const delta = this.#streams[event.type].push(event.delta);
      if (delta !== "") out.push({ ...event, delta });
      return out;
    }
    const out = [...this.#flush("reasoning-delta"), ...this.#flush("text-delta")];
    out.push(event);
    return out;
  }

  #flush(type: DeltaType): ServerEvent[] {
    const delta = this.#streams[type].flush();
    return delta === "" ? [] : [{ type, step: this.#steps[type], delta }];
  }
}
