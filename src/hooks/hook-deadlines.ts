/**
 * The deadlines of one run's pending hooks: every hook that answered with a promise races
 * its timeout and the run's abort here, under one timer and one abort listener for the whole
 * run, not a timer and a listener per hook (a run fires thousands of async hooks; a timer
 * and a listener cost microseconds each, and listeners on a signal shared by many runs cost
 * more the more runs are in flight).
 *
 * The timer ticks while hooks are pending, every tenth of the shortest timeout among them
 * (at most once a second). No hook reads the clock: a tick stamps the hooks that started
 * since the last one, and a later tick fails those stamped at least their timeout ago. A
 * hook therefore times out no earlier than its timeout, and at most a tick later. A tick
 * that finds nothing pending stops the timer, and `close()` (the run is over) stops it at
 * once: between the two, an idle timer may hold the process open for one tick, never more.
 */

import type { AnyEventPayload } from "../events/payloads.js";
import type { RegisteredHook } from "./hook-registry.js";
import { check, failure, type Invocation, thrown } from "./invoke-hook.js";

/** What becomes of a settled invocation before it is handed on (the runner traces it). */
export type AfterInvocation<T> = (hook: RegisteredHook, invocation: Invocation) => T;

const MAX_TICK_MS = 1000;

/** A pending hook the deadlines settled first (its timeout, or the run's abort): never a hook's answer. */
class Expired {
  constructor(readonly invocation: Invocation) {}
}

/**
 * Who reads a pending hook's answer: called once, with the hook's answer (`threw`: its
 * rejection) or an `Expired` when its timeout or the run's abort came first. The reader
 * hands what it read to `HookDeadlines.outcome`. The runner reads every pending hook of a
 * dispatch with one reader (no promise or await per hook).
 */
export interface PendingReader {
  read(pending: Pending, value: unknown, threw: boolean): void;
}

/**
 * One pending hook, linked into its run's list while it waits; `reader` gets its answer
 * (set by whoever entered it, before the answer can arrive: answers come in later ticks).
 */
export class Pending {
  /** When the first tick after the hook started fired (the clock it times out by). */
  stamp: number | undefined = undefined;
  done = false;
  /** What telemetry's observer made for this firing, when one watches (the runner's). */
  firing: unknown = undefined;
  /** The event it fired for (the runner's), so its traced decision names the call it decided. */
  payload: AnyEventPayload | undefined = undefined;
  previous: Pending | undefined = undefined;
  next: Pending | undefined = undefined;
  reader: PendingReader | undefined;
  /** The sequence it was read in, when it was (see `SequentialReader`). */
  via: SequentialReader | undefined = undefined;

  constructor(
    /** The hook it waits for (a sequence's entry is reused for its next hook; see `enterNext`). */
    public hook: RegisteredHook,
    reader: PendingReader | undefined,
  ) {
    this.reader = reader;
  }
}

/**
 * Reads pending hooks that wait one at a time (a dispatch's transforms and decides, in
 * order) with two functions made once, not a pair per hook: the answer that comes is
 * `current`'s. When a hook expires (its timeout, the run's abort) its promise may still
 * settle later, so the reader retires (it drops whatever comes to it) and the sequence
 * goes on with a new one (`HookDeadlines.enterNext`).
 */
export class SequentialReader {
  current: Pending | undefined = undefined;
  retired = false;
  /**
   * The one entry its hooks wait in, one after the other: the next hook enters only once the
   * last one's answer was read, and an expired hook retires the sequence (its entry with it),
   * so an entry is never reused while anything may still read it. Under many runs at once,
   * an entry per hook was most of what the garbage collector copied.
   */
  entry: Pending | undefined = undefined;
  readonly fulfilled = (value: unknown): void => this.#take(value, false);
  readonly rejected = (error: unknown): void => this.#take(error, true);

  constructor(readonly reader: PendingReader) {}

  #take(value: unknown, threw: boolean): void {
    if (this.retired) return;
    const pending = this.current!;
    this.current = undefined;
    if (!pending.done) this.reader.read(pending, value, threw);
  }
}

function same<T>(_hook: RegisteredHook, invocation: Invocation): T {
  return invocation as T;
}

function tickFor(timeoutMs: number): number {
  return Math.min(MAX_TICK_MS, Math.max(1, Math.floor(timeoutMs / 10)));
}

export class HookDeadlines {
  /** @internal How many hooks are pending (linked into the list). */
  live = 0;
  readonly #signal: AbortSignal | undefined;
  /** The pending hooks, oldest first: a list linked through them, so settling one is O(1). */
  #first: Pending | undefined;
  #last: Pending | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #tickMs = MAX_TICK_MS;
  #listening = false;

  /**
   * `signal`: the run's signal when something can abort the run (listened to once, at the
   * first pending hook); none when nothing can, and a pending hook races only its timeout.
   */
  constructor(signal?: AbortSignal) {
    this.#signal = signal;
  }

  /**
   * Races a pending answer against the hook's timeout and the run's abort: an aborted run
   * does not wait for a hook that ignores `ctx.signal` (its late answer is dropped).
   * Resolves with `after(hook, invocation)`; never rejects.
   */
  race<T = Invocation>(
    hook: RegisteredHook,
    pending: PromiseLike<unknown>,
    after: AfterInvocation<T> = same,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.enter(hook, pending, {
        read: (entered, value, threw) => {
          try {
            resolve(after(hook, this.outcome(entered, value, threw)));
          } catch (error) {
            reject(error);
          }
        },
      });
    });
  }

  /** A hook entered after the run was aborted expires at once; its late answer is dropped. */
  #expiredOnEntry(pending: Pending, value: PromiseLike<unknown>): boolean {
    if (!this.#signal?.aborted) return false;
    pending.done = true;
    // The late outcome is dropped, but a rejection of it must not go unhandled.
    value.then(undefined, () => {});
    deliver(pending, new Expired(aborted(pending.hook)));
    return true;
  }

  /**
   * Starts the race of a hook's pending answer: `reader` (or the one set on the returned
   * entry before the answer can arrive) gets what it came to, and hands it to `outcome`.
   * One entry and one reaction on the hook's promise per pending hook.
   */
  enter(hook: RegisteredHook, value: PromiseLike<unknown>, reader?: PendingReader): Pending {
    const pending = new Pending(hook, reader);
    if (this.#expiredOnEntry(pending, value)) return pending;
    this.#link(pending);
    value.then(
      (answer) => {
        // Settled first by its timeout or the run's abort: the late answer is dropped.
        if (!pending.done) pending.reader!.read(pending, answer, false);
      },
      (error: unknown) => {
        if (!pending.done) pending.reader!.read(pending, error, true);
      },
    );
    return pending;
  }

  /**
   * `enter` for the next hook of a sequence whose hooks wait one at a time: read through
   * `sequence` (no function made for this hook, and no entry: the sequence's own is reused).
   * The caller starts a new sequence when that one retired. Returns the hook's entry.
   */
  enterNext(hook: RegisteredHook, value: PromiseLike<unknown>, sequence: SequentialReader): Pending {
    let pending = sequence.entry;
    if (pending === undefined) {
      pending = new Pending(hook, sequence.reader);
      pending.via = sequence;
      sequence.entry = pending;
    } else {
      // Its last hook was read (and unlinked): the entry starts over for this one.
      pending.hook = hook;
      pending.stamp = undefined;
      pending.done = false;
      pending.firing = undefined;
      pending.payload = undefined;
    }
    if (this.#expiredOnEntry(pending, value)) return pending;
    this.#link(pending);
    sequence.current = pending;
    value.then(sequence.fulfilled, sequence.rejected);
    return pending;
  }

  /**
   * What a pending hook came to, from what its `answer` gave (`threw`: it rejected with
   * `value`): the hook's checked answer, its failure, or its timeout or abort.
   */
  outcome(pending: Pending, value: unknown, threw: boolean): Invocation {
    if (!pending.done) this.#unlink(pending);
    if (threw) return thrown(pending.hook, value);
    if (value instanceof Expired) return value.invocation;
    return check(pending.hook, value);
  }

  #link(pending: Pending): void {
    if (!this.#listening && this.#signal) {
      this.#listening = true;
      this.#signal.addEventListener("abort", () => this.#abortAll(), { once: true });
    }
    this.live++;
    const last = this.#last;
    if (last === undefined) this.#first = pending;
    else {
      last.next = pending;
      pending.previous = last;
    }
    this.#last = pending;
    const timeoutMs = pending.hook.timeoutMs;
    if (this.#timer === undefined) {
      this.#tickMs = tickFor(timeoutMs);
      this.#timer = setTimeout(this.#tick, this.#tickMs);
    } else if (timeoutMs < this.#tickMs * 10) {
      const tickMs = tickFor(timeoutMs);
      if (tickMs < this.#tickMs) {
        clearTimeout(this.#timer);
        this.#tickMs = tickMs;
        this.#timer = setTimeout(this.#tick, tickMs);
      }
    }
  }

  #unlink(pending: Pending): void {
    pending.done = true;
    this.live--;
    const { previous, next } = pending;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next === undefined) this.#last = previous;
    else next.previous = previous;
    pending.previous = undefined;
    pending.next = undefined;
  }

  /** Settles a pending hook first, as expired: unlinked now, its later answer dropped. */
  #expire(pending: Pending, invocation: Invocation): void {
    this.#unlink(pending);
    // Its promise may still settle: the sequence it is read in drops that, and ends here.
    if (pending.via) pending.via.retired = true;
    deliver(pending, new Expired(invocation));
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    if (this.#first === undefined) return;
    const now = Date.now();
    let shortest = Number.POSITIVE_INFINITY;
    for (let pending: Pending | undefined = this.#first; pending !== undefined; ) {
      const next: Pending | undefined = pending.next;
      const { timeoutMs } = pending.hook;
      if (pending.stamp === undefined) pending.stamp = now;
      else if (now - pending.stamp >= timeoutMs) {
        this.#expire(pending, failure(pending.hook, "timeout", `timed out after ${timeoutMs} ms`));
        pending = next;
        continue;
      }
      if (timeoutMs < shortest) shortest = timeoutMs;
      pending = next;
    }
    if (this.#first === undefined) return;
    this.#tickMs = tickFor(shortest);
    this.#timer = setTimeout(this.#tick, this.#tickMs);
  };

  #abortAll(): void {
    for (let pending: Pending | undefined = this.#first; pending !== undefined; ) {
      const next: Pending | undefined = pending.next;
      this.#expire(pending, aborted(pending.hook));
      pending = next;
    }
  }

  /** Stops the timer (the run is over; nothing it started waits any more). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Hands an expiry to the pending hook's reader in a later microtask, as an answer would come. */
function deliver(pending: Pending, expired: Expired): void {
  queueMicrotask(() => pending.reader!.read(pending, expired, false));
}

function aborted(hook: RegisteredHook): Invocation {
  return failure(hook, "aborted", "was cancelled: the run was aborted");
}
