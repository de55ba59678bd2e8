import type { EventName, HookKind } from "../events/catalogue.js";
import type { Flow } from "./flow.js";

/**
 * One entry per hook that fired (`RunResult.events`): why a run went the way it did. Plain,
 * read-only data: the entry of a firing that answered nothing (`continue` / `observed`, no
 * `detail`) is one frozen object per hook, shared by all its firings.
 */
export interface HookTraceEntry {
  event: EventName;
  hook: string;
  kind: HookKind;
  /** The result type (`deny`, `patch`, …), `continue`, `observed`, or `error` / `timeout` / `aborted` / `fail_open`. */
  effect: string;
  detail?: unknown;
}

/**
 * A trace entry as a stream surfaces it live: the same fields, typed `hook`. A firing that
 * answered nothing has one frozen event per hook too, so streaming it costs no copy.
 */
export type HookLiveEvent = { type: "hook" } & HookTraceEntry;

/** The live form of an entry (the quiet ones are made once per hook: `RegisteredHook.quietEvent`). */
export function liveEvent(entry: HookTraceEntry): HookLiveEvent {
  const live: HookLiveEvent = {
    type: "hook",
    event: entry.event,
    hook: entry.hook,
    kind: entry.kind,
    effect: entry.effect,
  };
  if (entry.detail !== undefined) live.detail = entry.detail;
  return live;
}

/**
 * A run's trace as hooks fire: each entry goes to `onTrace` (live output, the entry's live
 * form) and, when kept,
 * into a list written by index with room made up front (`capacity`), so a run that fires
 * hundreds of hooks does not regrow its list again and again.
 */
export class TraceLog {
  readonly #onTrace: ((event: HookLiveEvent) => void) | undefined;
  /** Whether entries are kept, and the room made for them at the first one. */
  readonly #capacity: number | undefined;
  /** Made at the first entry kept: a run no hook fires for holds no list. */
  #events: HookTraceEntry[] | undefined;
  #count = 0;

  /** `capacity` undefined: nothing is kept (entries only go to `onTrace`). */
  constructor(onTrace: ((event: HookLiveEvent) => void) | undefined, capacity: number | undefined) {
    this.#onTrace = onTrace;
    this.#capacity = capacity;
  }

  #kept(): HookTraceEntry[] | undefined {
    if (this.#events === undefined && this.#capacity !== undefined) this.#events = new Array(this.#capacity);
    return this.#events;
  }

  /** `live`: the entry's live form when there is one already (a quiet firing's, shared). */
  record(entry: HookTraceEntry, live?: HookLiveEvent): void {
    const events = this.#events ?? this.#kept();
    if (events !== undefined) events[this.#count++] = entry;
    const onTrace = this.#onTrace;
    if (onTrace !== undefined) onTrace(live ?? liveEvent(entry));
  }

  /** Entries traced elsewhere (a resumed run's earlier trace): kept, not sent to `onTrace`. */
  restore(entries: readonly HookTraceEntry[]): void {
    const events = this.#kept();
    if (events !== undefined) for (const entry of entries) events[this.#count++] = entry;
  }

  /** The kept entries so far, in firing order (the list itself, trimmed to them). */
  events(): HookTraceEntry[] {
    const events = this.#kept();
    if (events === undefined) return [];
    if (events.length !== this.#count) events.length = this.#count;
    return events;
  }
}

/**
 * What a trace entry says of an answer: the reason of a deny, terminate or ask, the feedback
 * of a retry, and what a rewrite produced — a request patch, rewritten arguments, input or
 * output — so a timeline can show before and after. Never a rewritten tool result: a later
 * hook of the chain may redact what an earlier one produced, and the raw result must not
 * reach the trace.
 */
export function detailOf(result: Flow): unknown {
  switch (result.type) {
    case "deny":
    case "terminate":
      return result.reason;
    case "retry":
      return result.feedback;
    case "ask":
      return result.request.reason;
    case "patch":
      return result.patch;
    case "rewriteArgs":
      return result.args;
    case "rewriteInput":
      return result.input;
    case "rewriteOutput":
      return result.output;
    default:
      return undefined;
  }
}
