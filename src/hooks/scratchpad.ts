/**
 * Scoped scratchpads (DESIGN §6): session ⊃ run ⊃ step ⊃ operation. A read falls through
 * to broader scopes; a write stays in its own scope, so narrower scopes never leak upward.
 * A scope's values are dropped when it ends (a new Scratchpad replaces it).
 */
export class Scratchpad {
  readonly #values = new Map<string, unknown>();
  readonly #parent: Scratchpad | undefined;

  constructor(parent?: Scratchpad) {
    this.#parent = parent;
  }

  get<T = unknown>(key: string): T | undefined {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    return this.#parent?.get<T>(key);
  }

  has(key: string): boolean {
    return this.#values.has(key) || (this.#parent?.has(key) ?? false);
  }

  set(key: string, value: unknown): void {
    this.#values.set(key, value);
  }

  /**
   * Atomic read-modify-write of one key in this scope: `fn` is synchronous, so no other
   * hook can interleave between the read and the write.
   */
  update<T>(key: string, fn: (current: T | undefined) => T): T {
    const next = fn(this.get<T>(key));
    this.#values.set(key, next);
    return next;
  }

  delete(key: string): boolean {
    return this.#values.delete(key);
  }

  /** This scope's own entries (not inherited ones). */
  entries(): IterableIterator<[string, unknown]> {
    return this.#values.entries();
  }
}
