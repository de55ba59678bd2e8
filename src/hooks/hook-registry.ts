/**
 * Hooks indexed by event, sorted by priority (ties keep registration order), with `match`
 * patterns compiled once. Selections are cached per (event, tool names, depth), so a
 * thousand hooks that do not match a call cost three map lookups, not a thousand tests.
 */
import picomatch from "picomatch";
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
  readonly matches: ((names: readonly string[]) => boolean) | undefined;
}

export interface HookSelection {
  readonly transforms: readonly RegisteredHook[];
  readonly decides: readonly RegisteredHook[];
  readonly inspects: readonly RegisteredHook[];
}

export const EMPTY_SELECTION: HookSelection = Object.freeze({
  transforms: Object.freeze([]),
  decides: Object.freeze([]),
  inspects: Object.freeze([]),
});

function compileMatch(match: string | readonly string[]): (names: readonly string[]) => boolean {
  const patterns = typeof match === "string" ? [match] : [...match];
  const test = picomatch(patterns, { dot: true });
  return (names) => names.some((name) => test(name));
}

function byPriority(a: RegisteredHook, b: RegisteredHook): number {
  return a.priority - b.priority || a.sequence - b.sequence;
}

let globalSequence = 0;

type SelectionCache = Map<string, Map<string, HookSelection>>;

export class HookRegistry {
  readonly #byEvent = new Map<EventName, RegisteredHook[]>();
  /**
   * Selections by event, then by the payload's tool names (nested maps: no key string is
   * built per dispatch), one cache for the owning agent and one for sub-agents.
   */
  readonly #cache = [new Map<EventName, SelectionCache>(), new Map<EventName, SelectionCache>()] as const;
  #cached = 0;

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
    const list = this.#byEvent.get(registered.event) ?? [];
    list.push(registered);
    list.sort(byPriority);
    this.#byEvent.set(registered.event, list);
    this.#clearCache();
    return () => {
      const current = this.#byEvent.get(registered.event);
      const index = current?.indexOf(registered) ?? -1;
      if (index >= 0) {
        current!.splice(index, 1);
        this.#clearCache();
      }
    };
  }

  get size(): number {
    let total = 0;
    for (const list of this.#byEvent.values()) total += list.length;
    return total;
  }

  /** Every hook, in dispatch order per event (for `explain` and introspection). */
  list(event?: EventName): readonly RegisteredHook[] {
    if (event) return this.#byEvent.get(event) ?? [];
    return [...this.#byEvent.values()].flat();
  }

  has(event: EventName): boolean {
    return (this.#byEvent.get(event)?.length ?? 0) > 0;
  }

  /** The hooks that fire for this payload, split by kind, in order. `depth` 0 = the owning agent. */
  select(payload: AnyEventPayload, depth = 0): HookSelection {
    const list = this.#byEvent.get(payload.type);
    if (list === undefined || list.length === 0) return EMPTY_SELECTION;
    const isToolEvent = TOOL_EVENTS.has(payload.type);
    // Two levels under the event: the first tool name ("" for non-tool events), then the
    // second; read without building the names list (only a cache miss needs it).
    let first = "";
    let second = "";
    if (isToolEvent) {
      const named = payload as { qualifiedName?: string; toolName?: string };
      if (named.qualifiedName !== undefined) {
        first = named.qualifiedName;
        second = named.toolName ?? "";
      } else if (payload.type === "invalid_tool_call") first = payload.toolName;
    }
    let selection = this.#cache[depth > 0 ? 1 : 0].get(payload.type)?.get(first)?.get(second);
    if (selection === undefined) {
      selection = this.#compute(list, isToolEvent ? toolNamesOf(payload) : undefined, depth);
      if (this.#cached >= 10_000) this.#clearCache();
      this.#slot(payload.type, depth, first).set(second, selection);
      this.#cached++;
    }
    return selection;
  }

  #slot(event: EventName, depth: number, first: string): Map<string, HookSelection> {
    const byEvent = this.#cache[depth > 0 ? 1 : 0];
    let byName = byEvent.get(event);
    if (byName === undefined) {
      byName = new Map();
      byEvent.set(event, byName);
    }
    let bySecond = byName.get(first);
    if (bySecond === undefined) {
      bySecond = new Map();
      byName.set(first, bySecond);
    }
    return bySecond;
  }

  #clearCache(): void {
    this.#cache[0].clear();
    this.#cache[1].clear();
    this.#cached = 0;
  }

  #compute(
    list: readonly RegisteredHook[],
    names: readonly string[] | undefined,
    depth: number,
  ): HookSelection {
    const transforms: RegisteredHook[] = [];
    const decides: RegisteredHook[] = [];
    const inspects: RegisteredHook[] = [];
    for (const hook of list) {
      if (hook.scope === "self" && depth > 0) continue;
      if (hook.scope === "children" && depth === 0) continue;
      if (hook.matches && !(names && hook.matches(names))) continue;
      (hook.kind === "transform" ? transforms : hook.kind === "decide" ? decides : inspects).push(hook);
    }
    if (transforms.length + decides.length + inspects.length === 0) return EMPTY_SELECTION;
    return { transforms, decides, inspects };
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
    const timeoutMs = hook.timeoutMs ?? this.#defaultTimeoutMs;
    if (!(timeoutMs > 0)) throw new TypeError(`${where}: timeoutMs must be a positive number`);
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
      matches: hook.match === undefined ? undefined : compileMatch(hook.match),
    };
  }
}
