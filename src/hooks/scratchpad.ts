/**
 * Scoped scratchpads: session ⊃ run ⊃ step ⊃ operation. A read falls through
 * to broader scopes; a write stays in its own scope, so narrower scopes never leak upward.
 * A scope's values are dropped when it ends (a new Scratchpad replaces it).
 */
export class Scratchpad {
  /** Made on the first write: most scopes (a step with no hook that writes) stay empty. */
  #values: Map<string, unknown> | undefined;
  readonly #parent: Scratchpad | undefined;
  /** Called once, when this scope is first written to (a session scope registers itself then). */
  #onFirstWrite: (() => void) | undefined;

  constructor(parent?: Scratchpad, onFirstWrite?: () => void) {
    this.#parent = parent;
    this.#onFirstWrite = onFirstWrite;
  }

  get<T = unknown>(key: string): T | undefined {
    if (this.#values?.has(key)) return this.#values.get(key) as T;
    return this.#parent?.get<T>(key);
  }

  has(key: string): boolean {
    return (this.#values?.has(key) ?? false) || (this.#parent?.has(key) ?? false);
  }

  set(key: string, value: unknown): void {
    this.#own().set(key, value);
  }

  /**
   * Atomic read-modify-write of one key in this scope: `fn` is synchronous, so no other
   * hook can interleave between the read and the write.
   */
  update<T>(key: string, fn: (current: T | undefined) => T): T {
    const next = fn(this.get<T>(key));
    this.#own().set(key, next);
    return next;
  }

  delete(key: string): boolean {
    return this.#values?.delete(key) ?? false;
  }

  /** How many entries this scope holds of its own (not inherited ones). */
  get size(): number {
    return this.#values?.size ?? 0;
  }

  /** This scope's own entries (not inherited ones). */
  entries(): IterableIterator<[string, unknown]> {
    return (this.#values ?? new Map<string, unknown>()).entries();
  }

  #own(): Map<string, unknown> {
    if (this.#values === undefined) {
      this.#values = new Map();
      const onFirstWrite = this.#onFirstWrite;
      this.#onFirstWrite = undefined;
      onFirstWrite?.();
    }
    return this.#values;
  }
}
