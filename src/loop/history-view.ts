/**
 * A run's result and its requests each carry a history: the transcript's first messages.
 * Copied when the run ends, a long session would cost a copy of its whole transcript per
 * request of every run (quadratic in the session's runs, and in a long run's steps). A long
 * history is instead a view of the transcript, its list made when it is first read.
 *
 * It stays true because the loop only appends to a transcript, except where it edits one
 * in place (a transcript edit, a rewritten final answer), and there it calls
 * `beforeTranscriptEdit` first: the views made so far then read a copy of the transcript as
 * it was. A store hands each run a transcript of its own, or, when it lends one (a replay),
 * lends it to one run at a time, which edits it only through the loop as well.
 */
import type { ModelMessage } from "../events/payloads.js";

/** Histories shorter than this are copied at once: a view costs more than the copy. */
const VIEW_FROM = 64;

/** What a transcript's views read: the transcript, or a copy of it as it was before an edit. */
interface Source {
  messages: readonly ModelMessage[];
}

const sources = new WeakMap<readonly ModelMessage[], Source>();

/**
 * Sets `target[key]` to the first `length` messages of `transcript`: a list of its own,
 * made now when short, else when the property is first read (then it is a plain property
 * again). Assigning the property replaces the view. Enumerable: JSON, spreads, clones and
 * equality read the list as they would a copy.
 */
export function setHistory<K extends string>(
  target: { [key in K]: readonly ModelMessage[] },
  key: K,
  transcript: readonly ModelMessage[],
  length: number,
): void {
  if (length < VIEW_FROM) {
    target[key] = transcript.slice(0, length);
    return;
  }
  let source = sources.get(transcript);
  if (source === undefined) {
    source = { messages: transcript };
    sources.set(transcript, source);
  }
  const read = source;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get() {
      const value = read.messages.slice(0, length);
      settle(target, key, value);
      return value;
    },
    set(value: ModelMessage[]) {
      settle(target, key, value);
    },
  });
}

function settle(target: object, key: string, value: ModelMessage[]): void {
  Object.defineProperty(target, key, { configurable: true, enumerable: true, writable: true, value });
}

/**
 * Before the loop changes `transcript` other than by appending: the views made of it so far
 * keep reading what it holds now (one copy, only when there are views).
 */
export function beforeTranscriptEdit(transcript: readonly ModelMessage[]): void {
  const source = sources.get(transcript);
  if (source === undefined) return;
  source.messages = transcript.slice();
  sources.delete(transcript);
}
