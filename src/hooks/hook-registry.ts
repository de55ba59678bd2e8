/**
 * Hooks indexed by event, sorted by priority (ties keep registration order), with `match`
 * patterns compiled once. Selections are cached per (event, tool names, depth), so a
 * thousand hooks that do not match a call cost three map lookups, not a thousand tests.
 */

import {
  canonicalEventName,
  EVENT_KINDS,
  type EventName,
  type HookKind,
  TOOL_EVENTS,
} from "../events/catalogue.js";
import type { AnyEventPayload } from "../events/payloads.js";
import { toolNamesOf } from "../events/payloads.js";
import type { AnyHook } from "./define-hook.js";
import { toolGlob } from "./tool-glob.js";
import type { HookTraceEntry } from "./trace.js";

export const DEFAULT_PRIORITY = 100;
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface RegisteredHook {
  readonly definition: AnyHook;
  readonly name: string;
  readonly event: EventName;
  readonly kind: HookKind;
  readonly priority: number;
  readonly sequence: number;
  readonly timeoutMs: number;
  readonly failOpen: boolean;
  readonly scope: "all" | "self" | "children";
  /** An inspect hook that runs before the operation (`when: "before"`). */
  readonly before: boolean;
  readonly matches: ((names: readonly string[]) => boolean) | undefined;
  /**
   * The trace entry of a firing that answered nothing: `continue` (`observed` for an inspect
   * hook), no `detail`. Shared and frozen, so a no-op hook allocates no entry per firing.
   */
  readonly quietEntry: HookTraceEntry;
  /**
   * The hook whose no-op firing first came right after this one's in a trace: set once, so a
   * trace keeps a seam's run of no-op firings as one slot (`TraceLog.recordQuiet`).
   */
  nextQuiet: RegisteredHook | undefined;
}

export interface HookSelection {
  readonly transforms: readonly RegisteredHook[];
  readonly decides: readonly RegisteredHook[];
  readonly inspects: readonly RegisteredHook[];
  /** Inspect hooks that run before the operation, awaited, in priority order (`when: "before"`). */
  readonly observers: readonly RegisteredHook[];
}

export const EMPTY_SELECTION: HookSelection = Object.freeze({
  transforms: Object.freeze([]),
  decides: Object.freeze([]),
  inspects: Object.freeze([]),
  observers: Object.freeze([]),
});

/** Events whose inspect hooks may run before the operation (`when: "before"`). */
export const BEFORE_EVENTS: ReadonlySet<EventName> = new Set<EventName>(["tool_call"]);

function compileMatch(match: string | readonly string[]): (names: readonly string[]) => boolean {
  const test = toolGlob(match);
  return (names) => names.some((name) => test(name));
}

function byPriority(a: RegisteredHook, b: RegisteredHook): number {
  return a.priority - b.priority || a.sequence - b.sequence;
}

let globalSequence = 0;

/** Selections by the payload's first, then second tool name (nested maps: no key string is built). */
type ByName = Map<string, Map<string, HookSelection>>;

/** One event's hooks and its cached selections (one lookup per dispatch for most events). */
interface EventSlot {
  /** In dispatch order. */
  readonly hooks: RegisteredHook[];
  readonly isToolEvent: boolean;
  /** Not a tool event: the selection for the owning agent (`depth` ≤ 0) and for sub-agents. */
  own: HookSelection | undefined;
  sub: HookSelection | undefined;
  /** A tool event: selections by tool names, for the owning agent and for sub-agents. */
  readonly byName: readonly [ByName, ByName];
  /** Selections cached in this slot (counted against the registry's bound). */
  cached: number;
}

export class HookRegistry {
  readonly #byEvent = new Map<EventName, EventSlot>();
  /**
   * The slot looked up last: the loop asks `has(event)` then selects for that same event, so
   * the second lookup is one comparison. (A slot, once made, stays: this is never stale.)
   */
  #lastEvent: EventName | undefined;
  #lastSlot: EventSlot | undefined;
  #cached = 0;
  /** Hooks registered (and not disposed): with none, `has` answers without a lookup. */
  #hookCount = 0;

  readonly #defaultTimeoutMs: number;

  /** `defaultTimeoutMs` applies to hooks that set no `timeoutMs` (default 30 000 ms). */
  constructor(hooks: readonly AnyHook[] = [], options: { defaultTimeoutMs?: number } = {}) {
    const fallback = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(fallback > 0)) throw new TypeError("defaultTimeoutMs must be a positive number");
    this.#defaultTimeoutMs = fallback;
    for (const hook of hooks) this.register(hook);
  }

  /** Registers a hook; returns its disposer. Throws on an unknown event or a kind the event does not take. */
  register(hook: AnyHook): () => void {
    const registered = this.#validate(hook);
    let slot = this.#byEvent.get(registered.event);
    if (slot === undefined) {
      slot = {
        hooks: [],
        isToolEvent: TOOL_EVENTS.has(registered.event),
        own: undefined,
        sub: undefined,
        byName: [new Map(), new Map()],
        cached: 0,
      };
      this.#byEvent.set(registered.event, slot);
    }
    slot.hooks.push(registered);
    slot.hooks.sort(byPriority);
    this.#hookCount++;
    this.#clearSlot(slot);
    return () => {
      const current = this.#byEvent.get(registered.event);
      const index = current?.hooks.indexOf(registered) ?? -1;
      if (index >= 0) {
        current!.hooks.splice(index, 1);
        this.#hookCount--;
        this.#clearSlot(current!);
      }
    };
  }

  get size(): number {
    let total = 0;
    for (const slot of this.#byEvent.values()) total += slot.hooks.length;
    return total;
  }

  /** Every hook, in dispatch order per event (for `explain` and introspection). */
  list(event?: EventName): readonly RegisteredHook[] {
    if (event) return this.#byEvent.get(event)?.hooks ?? [];
    return [...this.#byEvent.values()].flatMap((slot) => slot.hooks);
  }

  has(event: EventName): boolean {
    if (this.#hookCount === 0) return false;
    const slot = this.#slotOf(event);
    return slot !== undefined && slot.hooks.length > 0;
  }

  #slotOf(event: EventName): EventSlot | undefined {
    if (event === this.#lastEvent) return this.#lastSlot;
    const slot = this.#byEvent.get(event);
    if (slot !== undefined) {
      this.#lastEvent = event;
      this.#lastSlot = slot;
    }
    return slot;
  }

  /** The hooks that fire for this payload, split by kind, in order. `depth` 0 = the owning agent. */
  select(payload: AnyEventPayload, depth = 0, type: EventName = payload.type): HookSelection {
    const slot = this.#slotOf(type);
    if (slot === undefined || slot.hooks.length === 0) return EMPTY_SELECTION;
    if (!slot.isToolEvent) {
      const cached = depth > 0 ? slot.sub : slot.own;
      if (cached !== undefined) return cached;
      const selection = this.#compute(slot.hooks, undefined, depth);
      this.#count(slot);
      if (depth > 0) slot.sub = selection;
      else slot.own = selection;
      return selection;
    }
    // Two levels: the first tool name, then the second; read without building the names
    // list (only a cache miss needs it).
    let first = "";
    let second = "";
    const named = payload as { qualifiedName?: string; toolName?: string };
    if (named.qualifiedName !== undefined) {
      first = named.qualifiedName;
      second = named.toolName ?? "";
    } else if (type === "invalid_tool_call") first = (payload as { toolName: string }).toolName;
    const byName = slot.byName[depth > 0 ? 1 : 0];
    let selection = byName.get(first)?.get(second);
    if (selection === undefined) {
      selection = this.#compute(slot.hooks, toolNamesOf(payload), depth);
      this.#count(slot);
      let bySecond = byName.get(first);
      if (bySecond === undefined) {
        bySecond = new Map();
        byName.set(first, bySecond);
      }
      bySecond.set(second, selection);
    }
    return selection;
  }

  /** Counts a selection about to be cached in `slot`; past the bound, every cache starts over. */
  #count(slot: EventSlot): void {
    if (this.#cached >= 10_000) for (const each of this.#byEvent.values()) this.#clearSlot(each);
    slot.cached++;
    this.#cached++;
  }

  #clearSlot(slot: EventSlot): void {
    slot.own = undefined;
    slot.sub = undefined;
    slot.byName[0].clear();
    slot.byName[1].clear();
    this.#cached -= slot.cached;
    slot.cached = 0;
  }

  #compute(
    list: readonly RegisteredHook[],
    names: readonly string[] | undefined,
    depth: number,
  ): HookSelection {
    const transforms: RegisteredHook[] = [];
    const decides: RegisteredHook[] = [];
    const inspects: RegisteredHook[] = [];
    const observers: RegisteredHook[] = [];
    for (const hook of list) {
      if (hook.scope === "self" && depth > 0) continue;
      if (hook.scope === "children" && depth === 0) continue;
      if (hook.matches && !(names && hook.matches(names))) continue;
      const into =
        hook.kind === "transform"
          ? transforms
          : hook.kind === "decide"
            ? decides
            : hook.before
              ? observers
              : inspects;
      into.push(hook);
    }
    if (transforms.length + decides.length + inspects.length + observers.length === 0) return EMPTY_SELECTION;
    return { transforms, decides, inspects, observers };
  }

  #validate(hook: AnyHook): RegisteredHook {
    const where = `hook "${(hook as { name?: unknown }).name ?? "(unnamed)"}"`;
    if (typeof hook !== "object" || hook === null)
      throw new TypeError("a hook must be an object (use defineHook)");
    if (typeof hook.name !== "string" || hook.name === "")
      throw new TypeError("a hook needs a non-empty name");
    if (typeof hook.handler !== "function") throw new TypeError(`${where}: handler must be a function`);
    const event = canonicalEventName(String(hook.on));
    if (!event) throw new TypeError(`${where}: unknown event "${String(hook.on)}"`);
    const kinds = EVENT_KINDS[event];
    if (!kinds.includes(hook.kind)) {
      throw new TypeError(
        `${where}: ${event} does not take ${String(hook.kind)} hooks (it takes ${kinds.join(", ")})`,
      );
    }
    if (hook.match !== undefined && !TOOL_EVENTS.has(event)) {
      throw new TypeError(`${where}: "match" applies to tool events only, not ${event}`);
    }
    const when = (hook as { when?: unknown }).when;
    if (when !== undefined && when !== "before" && when !== "after")
      throw new TypeError(`${where}: when must be "before" or "after", not ${JSON.stringify(when)}`);
    if (when === "before" && hook.kind !== "inspect")
      throw new TypeError(
        `${where}: when: "before" applies to inspect hooks (a ${hook.kind} hook runs before the operation already)`,
      );
    if (when === "before" && !BEFORE_EVENTS.has(event))
      throw new TypeError(
        `${where}: when: "before" applies to ${[...BEFORE_EVENTS].join(", ")}, not ${event}`,
      );
    const timeoutMs = hook.timeoutMs ?? this.#defaultTimeoutMs;
    if (!(timeoutMs > 0)) throw new TypeError(`${where}: timeoutMs must be a positive number`);
    const quietEntry: HookTraceEntry = Object.freeze({
      event,
      hook: hook.name,
      kind: hook.kind,
      effect: hook.kind === "inspect" ? "observed" : "continue",
    });
    return {
      definition: hook,
      name: hook.name,
      event,
      kind: hook.kind,
      priority: hook.priority ?? DEFAULT_PRIORITY,
      sequence: globalSequence++,
      timeoutMs,
      failOpen: hook.onError === "fail_open",
      scope: hook.scope ?? "all",
      before: when === "before",
      matches: hook.match === undefined ? undefined : compileMatch(hook.match),
      quietEntry,
      nextQuiet: undefined,
    };
  }
}

/** The selections of several registries (a sub-agent's run), in one dispatch order. */
export function mergeSelections(selections: HookSelection[]): HookSelection {
  const nonEmpty = selections.filter((selection) => selection !== EMPTY_SELECTION);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? EMPTY_SELECTION;
  const order = (a: RegisteredHook, b: RegisteredHook) => a.priority - b.priority || a.sequence - b.sequence;
  return {
    transforms: nonEmpty.flatMap((selection) => selection.transforms).sort(order),
    decides: nonEmpty.flatMap((selection) => selection.decides).sort(order),
    inspects: nonEmpty.flatMap((selection) => selection.inspects),
    observers: nonEmpty.flatMap((selection) => selection.observers).sort(order),
  };
}
