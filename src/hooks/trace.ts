import type { EventName, HookKind } from "../events/catalogue.js";
import type { AnyEventPayload } from "../events/payloads.js";
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
  /**
   * The tool call a decision was about, on an event about one (`tool_call`, `tool_result`,
   * `tool_error`, `invalid_tool_call`, `approval_request`): its id and the tool's name as
   * the model called it. Absent on a firing that answered nothing (one shared entry).
   */
  toolCallId?: string;
  toolName?: string;
  detail?: unknown;
}

/**
 * A dispatch of one event to its hooks as a stream surfaces it live: the entries of the
 * hooks that fired, in firing order, sent once the dispatch ends (also when a hook denied,
 * failed or timed out). The entries are the trace's own (`RunResult.events`), not copies.
 */
export interface HookLiveEvent {
  type: "hook";
  /** The event the hooks fired for. */
  event: EventName;
  /** One entry per hook that fired, in the order they fired. */
  firings: readonly HookTraceEntry[];
}

/**
 * A hook that answered nothing traces its shared entry (`quietEntry`), and is linked to the
 * hook that fired right after it once (`nextQuiet`, set the first time and never changed),
 * which is how a trace keeps a seam's run of no-op firings as one slot.
 */
export interface QuietHook {
  readonly quietEntry: HookTraceEntry;
  nextQuiet: QuietHook | undefined;
}

/** A trace slot: an entry, or a run of no-op firings (its first hook and how many follow). */
type TraceSlot = HookTraceEntry | QuietRun;

class QuietRun {
  readonly first: QuietHook;
  /** Firings after the first, each of the previous one's `nextQuiet`. */
  more = 0;

  constructor(first: QuietHook) {
    this.first = first;
  }
}

/**
 * A run's trace as hooks fire: each entry is kept in a list written by index with room made
 * up front (`capacity`), so a run that fires hundreds of hooks does not regrow its list
 * again and again.
 *
 * Firings that answered nothing, one after another in the order they fired before (a
 * seam's no-op hooks), are kept as one slot, a run, until `events()` lists them: a run
 * with 50 no-op hooks per seam holds a few hundred slots instead of thousands of entries.
 */
export class TraceLog {
  /** The room made for the entries at the first one. */
  readonly #capacity: number;
  /** Made at the first entry kept: a run no hook fires for holds no list. */
  #slots: TraceSlot[] | undefined;
  #count = 0;
  /** Firings kept, runs counted in full. */
  #entries = 0;
  /** The run the last slot holds, while the next no-op firing may extend it. */
  #run: QuietRun | undefined;
  /** The hook that fired last in `#run`. */
  #last: QuietHook | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  #kept(): TraceSlot[] {
    this.#slots ??= new Array(this.#capacity);
    return this.#slots;
  }

  record(entry: HookTraceEntry): void {
    const slots = this.#slots ?? this.#kept();
    slots[this.#count++] = entry;
    this.#entries++;
    this.#run = undefined;
  }

  /** A firing that answered nothing: `hook.quietEntry`, kept in a run when it follows one. */
  recordQuiet(hook: QuietHook): void {
    const slots = this.#slots ?? this.#kept();
    this.#entries++;
    const run = this.#run;
    const last = this.#last;
    if (run !== undefined && last !== undefined) {
      // The first hook to follow another is its successor from then on.
      if (last.nextQuiet === undefined) last.nextQuiet = hook;
      if (last.nextQuiet === hook) {
        run.more++;
        this.#last = hook;
        return;
      }
    }
    const started = new QuietRun(hook);
    slots[this.#count++] = started;
    this.#run = started;
    this.#last = hook;
  }

  /** Entries traced elsewhere (a resumed run's earlier trace), kept after what is there. */
  restore(entries: readonly HookTraceEntry[]): void {
    const slots = this.#kept();
    for (const entry of entries) slots[this.#count++] = entry;
    this.#entries += entries.length;
    this.#run = undefined;
  }

  /** Slots the kept trace takes (what the next run of the agent makes room for). */
  get size(): number {
    return this.#count;
  }

  /** Entries kept so far (runs counted entry by entry): the length `events()` would have. */
  get entries(): number {
    return this.#entries;
  }

  /** The kept entries so far, in firing order (a new list; runs listed entry by entry). */
  events(): HookTraceEntry[] {
    const slots = this.#kept();
    const events: HookTraceEntry[] = new Array(this.#entries);
    let at = 0;
    for (let index = 0; index < this.#count; index++) {
      const slot = slots[index]!;
      if (!(slot instanceof QuietRun)) {
        events[at++] = slot;
        continue;
      }
      let hook: QuietHook | undefined = slot.first;
      for (let left = slot.more; hook !== undefined; left--) {
        events[at++] = hook.quietEntry;
        if (left === 0) break;
        hook = hook.nextQuiet;
      }
    }
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

/** Names on a decision's entry the tool call its event was about, when it was about one. */
export function nameCall(entry: HookTraceEntry, payload: AnyEventPayload): void {
  const { toolCallId, toolName } = payload as { toolCallId?: unknown; toolName?: unknown };
  if (typeof toolCallId !== "string") return;
  entry.toolCallId = toolCallId;
  if (typeof toolName === "string") entry.toolName = toolName;
}
