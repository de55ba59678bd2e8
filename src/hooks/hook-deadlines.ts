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

import type { RegisteredHook } from "./hook-registry.js";
import { check, failure, type Invocation, thrown } from "./invoke-hook.js";

/** What becomes of a settled invocation before it is handed on (the runner traces it). */
export type AfterInvocation<T> = (hook: RegisteredHook, invocation: Invocation) => T;

const MAX_TICK_MS = 1000;
/** Below this many entries the list of pending hooks is not compacted. */
const COMPACT_AT = 64;

/** One pending hook: its answer, its timeout, or the abort, whichever comes first, settles it. */
class Waiting {
  /** When the first tick after the hook started fired (the clock it times out by). */
  stamp: number | undefined = undefined;
  done = false;

  constructor(
    readonly hook: RegisteredHook,
    readonly owner: HookDeadlines,
    readonly after: AfterInvocation<unknown>,
    readonly resolve: (value: unknown) => void,
  ) {}

  settle(invocation: Invocation): void {
    if (this.done) return;
    this.done = true;
    this.owner.live--;
    this.resolve(this.after(this.hook, invocation));
  }

  onValue = (value: unknown): void => this.settle(check(this.hook, value));
  onError = (error: unknown): void => this.settle(thrown(this.hook, error));
}

function same<T>(_hook: RegisteredHook, invocation: Invocation): T {
  return invocation as T;
}

function tickFor(timeoutMs: number): number {
  return Math.min(MAX_TICK_MS, Math.max(1, Math.floor(timeoutMs / 10)));
}

export class HookDeadlines {
  /** @internal How many hooks are pending (entries of `#waiting` not done). */
  live = 0;
  readonly #signal: AbortSignal | undefined;
  /** The pending hooks, in the order they started; settled ones are dropped as it grows. */
  #waiting: Waiting[] = [];
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
    return new Promise<T>((resolve) => this.watch(hook, pending, after, resolve));
  }

  /** `race` without a promise of its own: `done` is called with the outcome. */
  watch<T>(
    hook: RegisteredHook,
    pending: PromiseLike<unknown>,
    after: AfterInvocation<T>,
    done: (value: T) => void,
  ): void {
    const waiting = new Waiting(hook, this, after, done as (value: unknown) => void);
    this.live++;
    if (this.#signal?.aborted) {
      waiting.settle(aborted(hook));
      // The late outcome is dropped, but a rejection of it must not go unhandled.
      pending.then(undefined, () => {});
      return;
    }
    this.#enter(waiting);
    pending.then(waiting.onValue, waiting.onError);
  }

  #enter(waiting: Waiting): void {
    if (!this.#listening && this.#signal) {
      this.#listening = true;
      this.#signal.addEventListener("abort", () => this.#abortAll(), { once: true });
    }
    const list = this.#waiting;
    // Settled entries are dropped once they are most of the list: O(1) per hook on average.
    if (list.length >= COMPACT_AT && this.live * 2 <= list.length) this.#compact();
    this.#waiting.push(waiting);
    if (this.#timer === undefined) {
      this.#tickMs = tickFor(waiting.hook.timeoutMs);
      this.#timer = setTimeout(this.#tick, this.#tickMs);
    } else if (waiting.hook.timeoutMs < this.#tickMs * 10) {
      const tickMs = tickFor(waiting.hook.timeoutMs);
      if (tickMs < this.#tickMs) {
        clearTimeout(this.#timer);
        this.#tickMs = tickMs;
        this.#timer = setTimeout(this.#tick, tickMs);
      }
    }
  }

  #compact(): void {
    this.#waiting = this.#waiting.filter((waiting) => !waiting.done);
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    this.#compact();
    if (this.#waiting.length === 0) return;
    const now = Date.now();
    let shortest = Number.POSITIVE_INFINITY;
    for (const waiting of this.#waiting) {
      if (waiting.stamp === undefined) waiting.stamp = now;
      else if (now - waiting.stamp >= waiting.hook.timeoutMs) {
        waiting.settle(failure(waiting.hook, "timeout", `timed out after ${waiting.hook.timeoutMs} ms`));
        continue;
      }
      if (waiting.hook.timeoutMs < shortest) shortest = waiting.hook.timeoutMs;
    }
    if (this.live === 0) {
      this.#waiting = [];
      return;
    }
    this.#tickMs = tickFor(shortest);
    this.#timer = setTimeout(this.#tick, this.#tickMs);
  };

  #abortAll(): void {
    const list = this.#waiting;
    this.#waiting = [];
    for (const waiting of list) waiting.settle(aborted(waiting.hook));
  }

  /** Stops the timer (the run is over; nothing it started waits any more). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

function aborted(hook: RegisteredHook): Invocation {
  return failure(hook, "aborted", "was cancelled: the run was aborted");
}
