/**
 * Dispatches one event to its hooks, in a TOCTOU-safe order:
 *   transforms (priority order, chained or accumulated) → decides (first deny wins)
 *   → before-observers (`observe`, awaited) → [the caller runs the operation]
 *   → inspects (concurrently, never blocking).
 * Composition per event: `model_request` accumulates patches (every hook sees the
 * baseline); tool and input/output rewrites chain (each hook sees the previous rewrite).
 */

import type { HookError } from "../errors/hook-error.js";
import type { EventName } from "../events/catalogue.js";
import type { AnyEventPayload } from "../events/payloads.js";
import { applyFlow, NONE } from "./apply-flow.js";
import { type BlockingOptions, type BlockingOutcome, NO_HOOKS, NO_OPTIONS, phased } from "./blocking.js";
import type { Flow } from "./flow.js";
import type { HookContext, HookLogger } from "./hook-context.js";
import { HookDeadlines, Pending, type PendingReader, SequentialReader } from "./hook-deadlines.js";
import type { HookObserver } from "./hook-observer.js";
import type { HookRegistry, HookSelection, RegisteredHook } from "./hook-registry.js";
import { mergeSelections } from "./hook-registry.js";
import { callHandler, type Invocation, isPending, isPlainAnswer, settleNow } from "./invoke-hook.js";
import { detailOf, type HookLiveEvent, type HookTraceEntry, nameCall, TraceLog } from "./trace.js";

/** `traced`: its trace entry is written already (it failed open, or answered nothing). */
type InvokedHook = Invocation & { traced?: boolean };

/**
 * A hook that answered nothing (`undefined` / `null`), its shared trace entry written: the
 * common case, which allocates nothing (no invocation, no trace entry, no promise).
 */
const QUIET: InvokedHook = Object.freeze({ ok: true, result: undefined, traced: true });

/** A dispatch resumed after a hook answered with a promise: where it is, and how it ends. */
interface Resumption<P extends AnyEventPayload> {
  readonly initial: P;
  readonly outcome: BlockingOutcome<P>;
  readonly context: HookContext;
  readonly selection: HookSelection;
  readonly options: BlockingOptions;
  /** The hook in flight, or next: transforms first, then decides. */
  index: number;
  readonly decided: { ask?: { flow: Flow; hook: string } };
  readonly resolve: (outcome: BlockingOutcome<P>) => void;
  readonly reject: (error: unknown) => void;
  /** Reads each of its pending hooks' answers. */
  reader: PendingReader;
  /** Its firings so far, sent live when it ends (see `HookRunner.scratch`). */
  live: LiveBatch;
  /** Hands them to `reader`, one hook at a time (replaced when a hook expired). */
  sequence: SequentialReader;
}

/** Firings of a dispatch that went on later, carried until it ends (none yet: undefined). */
type LiveBatch = HookTraceEntry[] | undefined;

/** The inspections of one dispatch that answered with promises: sent live once all have settled. */
interface InspectGroup extends PendingReader {
  live: LiveBatch;
  left: number;
}

export interface HookRunnerOptions {
  registries: readonly { registry: HookRegistry; depth: number }[];
  /**
   * Called once per dispatch that fired a hook, when the dispatch ends, with its firings in
   * order (the stream's `hook` events): the trace's own entries, a no-op firing's shared one.
   * A firing outside a dispatch (none today) would come alone.
   */
  trace?(event: HookLiveEvent): void;
  /**
   * Keep the trace (`RunResult.events`, read with `events()`), with room for `capacity`
   * entries up front: a run firing hundreds of hooks then never regrows its list.
   */
  keep?: { capacity: number };
  log: HookLogger;
  /** Watches each firing with its timing (telemetry's spans); none: nothing is called. */
  observer?: HookObserver | undefined;
  /**
   * The run's signal, when something can abort the run: its abort fails the hooks still
   * pending at once (one listener for the runner, added at the first pending hook). Without
   * it a pending hook races only its timeout. Hooks see their context's `signal` either way.
   * A function: the signal is made at the first pending hook (a run whose hooks all answer
   * at once makes none).
   */
  signal?: AbortSignal | (() => AbortSignal);
}

/** A run's inspections that answered with a promise: how many are unsettled, who waits for none. */
interface PendingInspections {
  count: number;
  /** Wakes `settle()` when the count reaches 0. */
  idle: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Reads their answers when the run is not streamed (a streamed run reads them per dispatch). */
  reader: PendingReader | undefined;
}

export class HookRunner {
  // The options' fields, kept one by one (not the options object, nor its `keep`).
  readonly #registries: HookRunnerOptions["registries"];
  readonly #log: HookLogger;
  /** Made when a hook first fires (or a trace is restored): a run no hook fires for holds none. */
  #trace: TraceLog | undefined;
  readonly #capacity: number | undefined;
  /** The timeouts (and abort) of hooks that answered with a promise: made at the first one. */
  #deadlines: HookDeadlines | undefined;
  /** Inspections answered with a promise: made at the first one. */
  #pendingInspections: PendingInspections | undefined;
  /** The run's depth below its only registry's owner (see `select`), known from the first payload. */
  #depth: number | undefined;

  /** The run's signal, when it can be aborted. */
  declare private readonly signal: AbortSignal | (() => AbortSignal) | undefined;
  /** Where each dispatch's firings go live (the stream's `hook` events). */
  declare private readonly onTrace: HookRunnerOptions["trace"];
  declare private readonly observer: HookObserver | undefined;
  /**
   * The firings of the dispatches under way, while `onTrace` is set: the open one's from
   * `base` to `top` (a dispatch a hook started inside another's stacks above it). Written
   * by index and never shrunk, so a dispatch's event costs one list of its exact size, not
   * a list regrown firing by firing.
   */
  declare private scratch: HookTraceEntry[] | undefined;
  declare private top: number;
  /** Where the open dispatch's firings start in `scratch`; -1: no dispatch is open. */
  declare private base: number;

  constructor(options: HookRunnerOptions) {
    this.#registries = options.registries;
    this.#log = options.log;
    this.#capacity = options.keep?.capacity;
    // Most runs have none of these: they read the prototype's value (no field each).
    if (options.signal !== undefined) this.signal = options.signal;
    if (options.trace !== undefined) this.onTrace = options.trace;
    if (options.observer !== undefined) this.observer = options.observer;
  }

  /** The kept trace so far, in firing order (empty unless `keep` was asked for). */
  events(): HookTraceEntry[] {
    return this.#trace === undefined ? [] : this.#trace.events();
  }

  /** How many entries the kept trace holds: where the next one will be in `events()`. */
  get traceLength(): number {
    return this.#trace?.entries ?? 0;
  }

  /** The slots the kept trace takes (a run of no-op firings is one). */
  get traceSize(): number {
    return this.#trace?.size ?? 0;
  }

  #traceLog(): TraceLog | undefined {
    if (this.#capacity !== undefined) this.#trace ??= new TraceLog(this.#capacity);
    return this.#trace;
  }

  /** Adds entries traced elsewhere (a resumed run's earlier trace) to the kept trace, not to `trace`. */
  restore(entries: readonly HookTraceEntry[]): void {
    this.#traceLog()?.restore(entries);
  }

  /** Sends a dispatch's firings live, if any fired. */
  #send(firings: LiveBatch): void {
    if (firings !== undefined) this.onTrace!({ type: "hook", event: firings[0]!.event, firings });
  }

  /** Opens a dispatch's firings (above the open one's); returns where the open one's start. */
  #open(): number {
    const outer = this.base;
    this.base = this.top;
    return outer;
  }

  /** The open dispatch's firings so far, taken out (a list of their own); it stays open. */
  #slice(): LiveBatch {
    const base = this.base;
    if (this.top === base) return undefined;
    const firings = this.scratch!.slice(base, this.top);
    this.top = base;
    return firings;
  }

  /** Closes the open dispatch (`outer`: what `#open` returned), its firings taken out. */
  #take(outer: number): LiveBatch {
    const firings = this.#slice();
    this.base = outer;
    return firings;
  }

  /** `more` firings after those `carried` (a dispatch that went on later). */
  #joined(carried: LiveBatch, more: LiveBatch): LiveBatch {
    if (carried === undefined) return more;
    if (more !== undefined) for (const entry of more) carried.push(entry);
    return carried;
  }

  /**
   * Whether any hook is registered for this event. The loop asks first, so an event nobody
   * listens to costs no payload, context or dispatch at all.
   */
  wants(event: EventName): boolean {
    const registries = this.#registries;
    for (let index = 0; index < registries.length; index++)
      if (registries[index]!.registry.has(event)) return true;
    return false;
  }

  /**
   * The hooks that fire for this payload. `type` is the payload's, passed by callers that
   * know it: payloads of a dozen shapes pass through here, and reading their fields is a
   * megamorphic load each time.
   */
  select(payload: AnyEventPayload, type: EventName = payload.type): HookSelection {
    const registries = this.#registries;
    if (registries.length === 1) {
      const only = registries[0]!;
      // Every payload a runner dispatches carries its run's lineage: the depth is the run's.
      this.#depth ??= payload.agentPath.length - 1 - only.depth;
      const depth = this.#depth;
      return only.registry.select(payload, depth, type);
    }
    return mergeSelections(
      registries.map(({ registry, depth }) => registry.select(payload, payload.agentPath.length - 1 - depth)),
    );
  }

  /** Runs transforms then decides. Never throws; failures come back in `failure`. */
  async blocking<P extends AnyEventPayload>(
    initial: P,
    context: HookContext,
    selection: HookSelection = this.select(initial),
    options: BlockingOptions = NO_OPTIONS,
  ): Promise<BlockingOutcome<P>> {
    return this.dispatch(initial, context, selection, options);
  }

  /**
   * `blocking`, synchronous while every hook answers synchronously: no promise at all when
   * no hook needs one (the loop's common case; see bench/hooks). A promise otherwise.
   * The outcome's lists are shared, frozen empties until something is added to them.
   */
  dispatch<P extends AnyEventPayload>(
    initial: P,
    context: HookContext,
    selection: HookSelection = this.select(initial),
    options: BlockingOptions = NO_OPTIONS,
  ): BlockingOutcome<P> | Promise<BlockingOutcome<P>> {
    if (this.onTrace === undefined) return this.#dispatch(initial, context, selection, options);
    // Its firings are sent live as it ends; a dispatch that goes on later took them along.
    const outer = this.#open();
    try {
      return this.#dispatch(initial, context, selection, options);
    } finally {
      this.#send(this.#take(outer));
    }
  }

  #dispatch<P extends AnyEventPayload>(
    initial: P,
    context: HookContext,
    selection: HookSelection,
    options: BlockingOptions,
  ): BlockingOutcome<P> | Promise<BlockingOutcome<P>> {
    // Every field from the start: one object shape whatever the hooks answer.
    const outcome: BlockingOutcome<P> = {
      payload: initial,
      patches: NONE,
      injected: NONE,
      edits: NONE,
      terminal: undefined,
      failure: undefined,
    };
    const phase = options.phase;
    const transforms = phase === "decides" ? NO_HOOKS : selection.transforms;
    const decides = phase === "transforms" ? NO_HOOKS : selection.decides;
    if (transforms.length === 0 && decides.length === 0) return outcome;
    for (let index = 0; index < transforms.length; index++) {
      const hook = transforms[index]!;
      // `model_request` accumulates: every hook sees the baseline request.
      const input = hook.event === "model_request" ? initial : outcome.payload;
      const firing = this.observer?.calling(hook, input, context);
      // Traced after the result is applied, so a rejected rewrite is one `error` entry.
      const invoked = this.#invoke(hook, input, context, firing);
      if (invoked === QUIET) continue;
      if (invoked instanceof Pending)
        return this.#resume(
          initial,
          outcome,
          context,
          phased(selection, phase),
          options,
          index,
          invoked,
          undefined,
        );
      if (this.#transformed(hook, invoked, outcome, options, firing)) return outcome;
    }
    let decided: { ask?: { flow: Flow; hook: string } } | undefined;
    for (let index = 0; index < decides.length; index++) {
      const hook = decides[index]!;
      const called = this.#call(hook, outcome.payload, context);
      if (called === QUIET) continue;
      decided ??= {};
      if (called instanceof Pending)
        return this.#resume(
          initial,
          outcome,
          context,
          phased(selection, phase),
          options,
          transforms.length + index,
          called,
          decided,
        );
      if (this.#decided(hook, called, outcome, decided)) return outcome;
    }
    if (decided?.ask) outcome.terminal = decided.ask;
    return outcome;
  }

  /**
   * The rest of a dispatch once a hook answered with a promise: hook `at` (transforms, then
   * decides) on. Each pending hook's answer is read by the dispatch's one reader, which
   * takes it and goes on with the next hooks: no promise or await per pending hook.
   */
  #resume<P extends AnyEventPayload>(
    initial: P,
    outcome: BlockingOutcome<P>,
    context: HookContext,
    selection: HookSelection,
    options: BlockingOptions,
    at: number,
    first: Pending,
    decidedSoFar: { ask?: { flow: Flow; hook: string } } | undefined,
  ): Promise<BlockingOutcome<P>> {
    return new Promise<BlockingOutcome<P>>((resolve, reject) => {
      const resumption: Resumption<P> = {
        initial,
        outcome,
        context,
        selection,
        options,
        index: at,
        decided: decidedSoFar ?? {},
        resolve,
        reject,
        reader: undefined!,
        sequence: undefined!,
        // The firings so far go on with it (`dispatch` sends nothing for it now).
        live: this.onTrace === undefined ? undefined : this.#slice(),
      };
      resumption.reader = {
        read: (pending, value, threw) => this.#resumed(resumption, pending, value, threw),
      };
      resumption.sequence = new SequentialReader(resumption.reader);
      first.reader = resumption.reader;
    });
  }

  /** A pending hook of a resumed dispatch answered (or expired): its answer taken, the next hooks run. */
  #resumed<P extends AnyEventPayload>(
    resumption: Resumption<P>,
    pending: Pending,
    value: unknown,
    threw: boolean,
  ): void {
    // Its firings are collected apart, whatever else is under way.
    const outer = this.#open();
    try {
      const { hook, firing, payload } = pending;
      const { outcome } = resumption;
      const invocation = this.#failure(
        hook,
        this.#deadlines!.outcome(pending, value, threw),
        firing,
        payload,
      );
      const stops =
        resumption.index < resumption.selection.transforms.length
          ? this.#transformed(hook, invocation, outcome, resumption.options, firing)
          : // A decide's answer is traced as it is read.
            this.#decided(hook, this.#traced(hook, invocation, firing, payload), outcome, resumption.decided);
      if (stops) {
        this.#ended(resumption, outcome);
        return;
      }
      resumption.index++;
      this.#runFrom(resumption);
    } catch (error) {
      this.#ended(resumption, undefined, error);
    } finally {
      resumption.live = this.#joined(resumption.live, this.#take(outer));
    }
  }

  /** A resumed dispatch ends: its firings sent live, then its outcome (or error) handed back. */
  #ended<P extends AnyEventPayload>(
    resumption: Resumption<P>,
    outcome: BlockingOutcome<P> | undefined,
    error?: unknown,
  ): void {
    if (this.onTrace !== undefined) {
      this.#send(this.#joined(resumption.live, this.#slice()));
      resumption.live = undefined;
    }
    if (outcome === undefined) resumption.reject(error);
    else resumption.resolve(outcome);
  }

  /** Runs a resumed dispatch's hooks from its index until one answers with a promise, or to its end. */
  #runFrom<P extends AnyEventPayload>(resumption: Resumption<P>): void {
    const { initial, outcome, context, selection, options, decided } = resumption;
    const { transforms, decides } = selection;
    // A hook of this dispatch expired: its late answer may still come to the old sequence.
    if (resumption.sequence.retired) resumption.sequence = new SequentialReader(resumption.reader);
    const sequence = resumption.sequence;
    for (; resumption.index < transforms.length; resumption.index++) {
      const hook = transforms[resumption.index]!;
      const input = hook.event === "model_request" ? initial : outcome.payload;
      const firing = this.observer?.calling(hook, input, context);
      const invoked = this.#invoke(hook, input, context, firing, sequence);
      if (invoked instanceof Pending) return;
      if (this.#transformed(hook, invoked, outcome, options, firing)) {
        this.#ended(resumption, outcome);
        return;
      }
    }
    const count = transforms.length + decides.length;
    for (; resumption.index < count; resumption.index++) {
      const hook = decides[resumption.index - transforms.length]!;
      const called = this.#call(hook, outcome.payload, context, sequence);
      if (called instanceof Pending) return;
      if (this.#decided(hook, called, outcome, decided)) {
        this.#ended(resumption, outcome);
        return;
      }
    }
    if (decided.ask) outcome.terminal = decided.ask;
    this.#ended(resumption, outcome);
  }

  /** A before-observer's pending answer, read and traced (its firing into `group`'s live batch). */
  #answered(pending: Pending, group: { live: LiveBatch }): Promise<InvokedHook> {
    return new Promise<InvokedHook>((resolve, reject) => {
      pending.reader = {
        read: (entered, value, threw) => {
          const outer = this.#open();
          try {
            const { hook, firing, payload } = entered;
            resolve(
              this.#traced(
                hook,
                this.#failure(hook, this.#deadlines!.outcome(entered, value, threw), firing, payload),
                firing,
                payload,
              ),
            );
          } catch (error) {
            reject(error);
          } finally {
            group.live = this.#joined(group.live, this.#take(outer));
          }
        },
      };
    });
  }

  /** Applies a transform's answer; true when the dispatch stops here (failure or terminal). */
  #transformed<P extends AnyEventPayload>(
    hook: RegisteredHook,
    invocation: InvokedHook,
    outcome: BlockingOutcome<P>,
    options: BlockingOptions,
    firing: unknown,
  ): boolean {
    if (!invocation.ok) {
      outcome.failure = invocation.error;
      return true;
    }
    const result = invocation.result;
    const failure = result === undefined ? undefined : applyFlow(hook, result, outcome, options);
    if (failure) {
      this.#traceEffect(hook, "error", failure.message, firing, outcome.payload);
      outcome.failure = failure;
      return true;
    }
    if (!invocation.traced)
      this.#traceResult(hook, result, invocation.notFired, firing, outcome.payload, outcome.payload);
    return outcome.terminal !== undefined;
  }

  /** Takes a decide's answer (already traced); true when the dispatch stops here (failure or deny). */
  #decided<P extends AnyEventPayload>(
    hook: RegisteredHook,
    invocation: Invocation,
    outcome: BlockingOutcome<P>,
    decided: { ask?: { flow: Flow; hook: string } },
  ): boolean {
    if (!invocation.ok) {
      outcome.failure = invocation.error;
      return true;
    }
    const result = invocation.result;
    if (result?.type === "deny") {
      outcome.terminal = { flow: result, hook: hook.name };
      return true;
    }
    if (result?.type === "ask" && decided.ask === undefined) decided.ask = { flow: result, hook: hook.name };
    return false;
  }

  /** Fires inspect hooks concurrently; the caller never waits. `settle()` collects them. */
  inspect(
    payload: AnyEventPayload,
    context: HookContext,
    selection: HookSelection = this.select(payload),
  ): void {
    const { inspects } = selection;
    // Its firings are sent live as it ends: when it returns, or once the inspections that
    // answered with a promise have all settled.
    if (this.onTrace === undefined) {
      this.#inspectAll(inspects, payload, context);
      return;
    }
    const outer = this.#open();
    let group: InspectGroup | undefined;
    try {
      group = this.#inspectAll(inspects, payload, context);
    } finally {
      const firings = this.#take(outer);
      if (group === undefined) this.#send(firings);
      else group.live = firings;
    }
  }

  /** `inspect`'s hooks; the group of those that answered with a promise, when live output waits for them. */
  #inspectAll(
    inspects: readonly RegisteredHook[],
    payload: AnyEventPayload,
    context: HookContext,
  ): InspectGroup | undefined {
    let group: InspectGroup | undefined;
    for (let index = 0; index < inspects.length; index++) {
      const hook = inspects[index]!;
      const firing = this.observer?.calling(hook, payload, context);
      const value = callHandler(hook, payload, context);
      // An inspect hook's answer is ignored: anything but a promise, a throw or NOT_FIRED is
      // the common case, one shared trace entry and nothing allocated.
      if (value === undefined || isPlainAnswer(value)) {
        this.#recordQuiet(hook, firing, undefined);
        continue;
      }
      // A promise is read once it settles, and counted for `settle()`.
      if (isPending(value)) {
        this.#pendingInspections ??= { count: 0, idle: undefined, reader: undefined };
        const inspections = this.#pendingInspections;
        inspections.count++;
        let reader: PendingReader;
        if (this.onTrace === undefined) {
          inspections.reader ??= {
            read: (pending, answer, threw) => this.#inspectSettled(pending, answer, threw),
          };
          reader = inspections.reader;
        } else {
          group ??= this.#inspectGroup();
          group.left++;
          reader = group;
        }
        const pending = this.#race().enter(hook, value, reader);
        pending.firing = firing;
        pending.payload = payload;
        continue;
      }
      const called = this.#traced(
        hook,
        this.#failure(hook, settleNow(hook, value), firing, payload),
        firing,
        payload,
      );
      if (!called.ok) this.#inspectFailed(called.error);
    }
    return group;
  }

  /** A group whose settled inspections join its live batch, sent when the last one settles. */
  #inspectGroup(): InspectGroup {
    const group: InspectGroup = {
      live: undefined,
      left: 0,
      read: (pending, answer, threw) => {
        const outer = this.#open();
        try {
          this.#inspectSettled(pending, answer, threw);
        } finally {
          group.live = this.#joined(group.live, this.#take(outer));
          if (--group.left === 0) this.#send(group.live);
        }
      },
    };
    return group;
  }

  /**
   * Runs the selection's before-observers (`when: "before"` inspect hooks) one after the
   * other, in priority order; the operation waits for them. Never throws: a failure is
   * logged and traced, and the next observer (and the operation) still run.
   */
  async observe(payload: AnyEventPayload, context: HookContext, selection: HookSelection): Promise<void> {
    const { observers } = selection;
    // Their firings, sent live once the last has run (or one failed to run at all).
    const group: { live: LiveBatch } = { live: undefined };
    try {
      for (let index = 0; index < observers.length; index++) {
        const hook = observers[index]!;
        const outer = this.#open();
        let called: InvokedHook | Pending;
        try {
          called = this.#call(hook, payload, context);
        } finally {
          group.live = this.#joined(group.live, this.#take(outer));
        }
        if (called === QUIET) continue;
        const invocation = called instanceof Pending ? await this.#answered(called, group) : called;
        if (!invocation.ok) this.#inspectFailed(invocation.error);
      }
    } finally {
      if (this.onTrace !== undefined) this.#send(group.live);
    }
  }

  /** An inspection that answered with a promise, once it settled (or expired): traced, counted off. */
  #inspectSettled(pending: Pending, value: unknown, threw: boolean): void {
    const { hook, firing, payload } = pending;
    const invocation = this.#traced(
      hook,
      this.#failure(hook, this.#deadlines!.outcome(pending, value, threw), firing, payload),
      firing,
      payload,
    );
    if (!invocation.ok) this.#inspectFailed(invocation.error);
    const inspections = this.#pendingInspections!;
    if (--inspections.count === 0 && inspections.idle) {
      const { resolve } = inspections.idle;
      inspections.idle = undefined;
      resolve();
    }
  }

  /** Whether inspections answered with promises that have not settled yet (`settle()` would wait for them). */
  get unsettled(): boolean {
    const inspections = this.#pendingInspections;
    return inspections !== undefined && inspections.count > 0;
  }

  /** Resolves once every inspection started so far (and any started meanwhile) has settled. */
  settle(): Promise<void> {
    const inspections = this.#pendingInspections;
    if (inspections === undefined || inspections.count === 0) return Promise.resolve();
    if (!inspections.idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      inspections.idle = { promise, resolve };
    }
    return inspections.idle.promise;
  }

  /**
   * Stops the timer of the hooks' timeouts. The run is over: everything it waits for has
   * settled, and what it no longer waits for (a hook that ignored the abort) is dropped.
   */
  close(): void {
    this.#deadlines?.close();
  }

  #race(): HookDeadlines {
    if (this.#deadlines === undefined) {
      const { signal } = this;
      this.#deadlines = new HookDeadlines(typeof signal === "function" ? signal() : signal);
    }
    return this.#deadlines;
  }

  #inspectFailed(error: HookError): void {
    this.#log.warn(`inspect hook failed (isolated): ${error.message}`);
  }

  /**
   * Invokes and traces a hook. Synchronous for a synchronous handler, so a hook that needs
   * no promise costs none (no microtask per hook; see bench/hooks); a promise otherwise.
   * `QUIET` (traced, nothing allocated) when it answered nothing.
   */
  #call(
    hook: RegisteredHook,
    payload: AnyEventPayload,
    context: HookContext,
    sequence?: SequentialReader,
  ): InvokedHook | Pending {
    const firing = this.observer?.calling(hook, payload, context);
    const value = callHandler(hook, payload, context);
    if (value === undefined || value === null) {
      this.#recordQuiet(hook, firing, undefined);
      return QUIET;
    }
    // Decide hooks: no result to apply first, so the answer is traced as it is read.
    if (isPending(value)) {
      const pending = sequence
        ? this.#race().enterNext(hook, value, sequence)
        : this.#race().enter(hook, value);
      pending.firing = firing;
      pending.payload = payload;
      return pending;
    }
    return this.#traced(hook, this.#failure(hook, settleNow(hook, value), firing, payload), firing, payload);
  }

  #traced(
    hook: RegisteredHook,
    invocation: InvokedHook,
    firing: unknown,
    payload: AnyEventPayload | undefined,
  ): InvokedHook {
    if (invocation.ok && !invocation.traced)
      this.#traceResult(hook, invocation.result, invocation.notFired, firing, undefined, payload);
    return invocation;
  }

  /**
   * Invokes a hook; traces its failure (or its failing open), not its success, except the
   * common answer, nothing (`QUIET`, traced: nothing to apply). Sync when the hook is.
   */
  #invoke(
    hook: RegisteredHook,
    payload: AnyEventPayload,
    context: HookContext,
    firing: unknown,
    sequence?: SequentialReader,
  ): InvokedHook | Pending {
    const value = callHandler(hook, payload, context);
    if (value === undefined || value === null) {
      this.#recordQuiet(hook, firing, undefined);
      return QUIET;
    }
    // A raw answer other than nothing: checked (or raced), its failure traced. A resumed
    // dispatch reads it through its sequence (no function made for it).
    if (isPending(value)) {
      const pending = sequence
        ? this.#race().enterNext(hook, value, sequence)
        : this.#race().enter(hook, value);
      pending.firing = firing;
      pending.payload = payload;
      return pending;
    }
    return this.#failure(hook, settleNow(hook, value), firing, payload);
  }

  /** `payload`: the event the hook fired for, so a traced decision names the tool call it decided. */
  #failure(
    hook: RegisteredHook,
    invocation: Invocation,
    firing: unknown,
    payload: AnyEventPayload | undefined,
  ): InvokedHook {
    if (invocation.ok) return invocation;
    const { error } = invocation;
    // An aborted run never fails open: nothing should go on after the abort.
    if (hook.failOpen && hook.kind !== "inspect" && error.reason !== "aborted") {
      this.#log.warn(`hook failed open (onError: fail_open): ${error.message}`);
      this.#traceEffect(hook, "fail_open", error.message, firing, payload);
      return { ok: true, result: undefined, traced: true };
    }
    const effect = error.reason === "timeout" || error.reason === "aborted" ? error.reason : "error";
    this.#traceEffect(hook, effect, error.message, firing, payload);
    return invocation;
  }

  #traceResult(
    hook: RegisteredHook,
    result: Flow | undefined,
    notFired: boolean | undefined,
    firing: unknown,
    after: AnyEventPayload | undefined,
    payload: AnyEventPayload | undefined,
  ): void {
    if (notFired) return;
    if (result === undefined || hook.kind === "inspect") this.#recordQuiet(hook, firing, after);
    else this.#traceEffect(hook, result.type, detailOf(result), firing, payload, after);
  }

  #traceEffect(
    hook: RegisteredHook,
    effect: string,
    detail: unknown,
    firing: unknown,
    payload: AnyEventPayload | undefined,
    after?: AnyEventPayload,
  ): void {
    const entry: HookTraceEntry = { event: hook.event, hook: hook.name, kind: hook.kind, effect };
    if (payload !== undefined) nameCall(entry, payload);
    if (detail !== undefined) entry.detail = detail;
    this.#record(entry, firing, after);
  }

  /** Traces a firing that answered nothing (its shared entry; runs of them take one slot). */
  #recordQuiet(hook: RegisteredHook, firing: unknown, after: AnyEventPayload | undefined): void {
    (this.#trace ?? this.#traceLog())?.recordQuiet(hook);
    if (this.onTrace !== undefined) this.#firedLive(hook.quietEntry);
    if (firing !== undefined) this.observer!.fired(firing, hook.quietEntry, after);
  }

  /** Writes a trace entry, and hands it to the observer when one watches (`firing` is its). */
  #record(entry: HookTraceEntry, firing: unknown, after: AnyEventPayload | undefined): void {
    (this.#trace ?? this.#traceLog())?.record(entry);
    if (this.onTrace !== undefined) this.#firedLive(entry);
    if (firing !== undefined) this.observer!.fired(firing, entry, after);
  }

  /** A firing joins its dispatch's live batch (alone when none is under way, sent at once). */
  #firedLive(entry: HookTraceEntry): void {
    if (this.base < 0) {
      this.onTrace!({ type: "hook", event: entry.event, firings: [entry] });
      return;
    }
    const scratch = this.scratch ?? this.#newScratch();
    scratch[this.top++] = entry;
  }

  #newScratch(): HookTraceEntry[] {
    this.scratch = [];
    return this.scratch;
  }
}

Object.assign(HookRunner.prototype, {
  signal: undefined,
  onTrace: undefined,
  observer: undefined,
  scratch: undefined,
  top: 0,
  base: -1,
});
