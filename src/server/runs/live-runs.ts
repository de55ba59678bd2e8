/**
 * The runs this process is driving right now, and who listens to them. Per process by
 * nature (an AbortController, open HTTP streams); what must outlive the process or be seen
 * by another replica — sessions, timelines, suspended runs, the session lease — lives in
 * the StateStore instead. A second replica would forward these events over a shared
 * channel; nothing else here would change.
 *
 * A run is one `agent.stream()` or `agent.resumeStream()`. Its events are kept while it
 * runs, so a listener that joins late (a reconnecting `useChat`, a second browser tab)
 * gets them from the start. Session watchers get the events of every run of their session
 * — a run resumed from the approval inbox reaches the client that started it.
 */
import type { AgentStream } from "../../agent/types.js";
import type { RunResult } from "../../loop/run-result.js";
import { MaskedDeltas } from "../../models/masked-deltas.js";
import type { Scrubber } from "../http/secret-scrubber.js";
import { inRunSession } from "./run-session.js";
import type { ServerEvent } from "./run-timeline.js";

export interface RunObserver {
  event(event: ServerEvent): void;
  /** The run ended; `error` when it failed without a result (a refused resume). */
  end?(error?: unknown): void;
}

export interface StartRunOptions {
  sessionId: string;
  agent: string;
  /** `message`: a client's message (its disconnect aborts the run); `resume`: the server's own. */
  kind: "message" | "resume";
  stream(signal: AbortSignal): AgentStream;
  /** Before `run-finish` reaches anyone: persist, release the lease. Also called when it failed. */
  settle(run: LiveRun, outcome: { result?: RunResult; error?: unknown }): Promise<void>;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export class LiveRun {
  readonly sessionId: string;
  readonly agent: string;
  readonly kind: "message" | "resume";
  readonly controller = new AbortController();
  readonly events: ServerEvent[] = [];
  runId: string | undefined;
  readonly #started = deferred<void>();
  readonly #result = deferred<RunResult>();
  readonly #observers = new Set<RunObserver>();
  #ended = false;

  constructor(options: Pick<StartRunOptions, "sessionId" | "agent" | "kind">) {
    this.sessionId = options.sessionId;
    this.agent = options.agent;
    this.kind = options.kind;
  }

  /** Resolves at the run's first event; rejects when it failed before any (a refused resume). */
  get started(): Promise<void> {
    return this.#started.promise;
  }

  /** The run's result; rejects when it failed without one. */
  get result(): Promise<RunResult> {
    return this.#result.promise;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Events so far first (`replay`), then each as it comes; returns the unsubscriber. */
  subscribe(observer: RunObserver, replay = true): () => void {
    if (replay) for (const event of this.events) observer.event(event);
    if (this.#ended) {
      observer.end?.();
      return () => {};
    }
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** @internal delivers one event to the run's observers and the session's watchers. */
  publish(event: ServerEvent, watchers: Iterable<RunObserver>): void {
    if (event.type === "run-start") this.runId = event.runId;
    if (this.events.length === 0) this.#started.resolve();
    this.events.push(event);
    for (const observer of [...this.#observers, ...watchers]) {
      try {
        observer.event(event);
      } catch (error) {
        console.error(`[hookwise] a run listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** @internal */
  finish(outcome: { result?: RunResult; error?: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    if (outcome.result) this.#result.resolve(outcome.result);
    else {
      this.#started.reject(outcome.error);
      this.#result.reject(outcome.error);
    }
    for (const observer of this.#observers) observer.end?.(outcome.error);
    this.#observers.clear();
  }
}

export class LiveRuns {
  readonly #bySession = new Map<string, LiveRun>();
  readonly #byRun = new Map<string, LiveRun>();
  readonly #watchers = new Map<string, Set<RunObserver>>();
  readonly #scrub: Scrubber;

  /** `scrub`: the server's secret scrubber (deltas are masked across one another with it). */
  constructor(scrub: Scrubber) {
    this.#scrub = scrub;
  }

  /** The run in progress in a session (in this process). */
  session(sessionId: string): LiveRun | undefined {
    return this.#bySession.get(sessionId);
  }

  byRun(runId: string): LiveRun | undefined {
    return this.#byRun.get(runId);
  }

  all(): LiveRun[] {
    return [...this.#bySession.values()];
  }

  /**
   * The events of every run of a session from now on, the current one's replayed first;
   * returns the unsubscriber. A watcher outlives runs: it is never told one ended.
   */
  watch(sessionId: string, observer: RunObserver): () => void {
    const current = this.#bySession.get(sessionId);
    if (current) for (const event of current.events) observer.event(event);
    let set = this.#watchers.get(sessionId);
    if (!set) {
      set = new Set();
      this.#watchers.set(sessionId, set);
    }
    set.add(observer);
    return () => {
      set.delete(observer);
      if (set.size === 0) this.#watchers.delete(sessionId);
    };
  }

  /** An event from outside the run's stream (a failed attempt) joins its run, if it is live here. */
  inject(runId: string, event: ServerEvent): void {
    const run = this.#byRun.get(runId);
    if (run && !run.ended) run.publish(event, this.#watchers.get(run.sessionId) ?? []);
  }

  /** Starts a run; the caller holds the session's lease, which `settle` gives back. */
  start(options: StartRunOptions): LiveRun {
    const run = new LiveRun(options);
    this.#bySession.set(options.sessionId, run);
    // The run's session, for what the agent's shared objects keep per session (a script's place).
    void inRunSession(options.sessionId, () => this.#pump(run, options));
    return run;
  }

  async #pump(run: LiveRun, options: StartRunOptions): Promise<void> {
    let result: RunResult | undefined;
    let settled = false;
    const settle = async (outcome: { result?: RunResult; error?: unknown }) => {
      if (settled) return;
      settled = true;
      try {
        await options.settle(run, outcome);
      } catch (error) {
        console.error(`[hookwise] saving run ${run.runId ?? "?"} failed: ${(error as Error).message}`);
      }
      this.#forget(run);
    };
    // A secret streamed in pieces is masked whole before any listener sees a piece.
    const scrub = this.#scrub;
    const deltas = scrub.secrets.length
      ? new MaskedDeltas<ServerEvent>(scrub, () => scrub.secrets)
      : undefined;
    try {
      const live = options.stream(run.controller.signal);
      for await (const streamed of live) {
        for (const event of deltas ? deltas.take(streamed) : [streamed]) {
          if (event.type === "run-start") this.#byRun.set(event.runId, run);
          if (event.type === "run-finish") {
            // Persisted, and the lease given back, before anyone hears the run is over: the
            // next message of a client that waited for it finds the session free.
            result = event.result;
            await settle({ result });
          }
          run.publish(event, this.#watchers.get(run.sessionId) ?? []);
        }
      }
      result = await live.result;
      await settle({ result });
      run.finish({ result });
    } catch (error) {
      await settle(result ? { result } : { error });
      run.finish(result ? { result } : { error });
    }
  }

  #forget(run: LiveRun): void {
    if (this.#bySession.get(run.sessionId) === run) this.#bySession.delete(run.sessionId);
    if (run.runId !== undefined && this.#byRun.get(run.runId) === run) this.#byRun.delete(run.runId);
  }
}
