/**
 * A single-consumer queue that turns pushed events into an AsyncIterable. A push is an array
 * push (or, when the consumer waits, handing the item over); items are read from a moving
 * head, never shifted out one by one (a run's thousands of events queue up at once).
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #closed = false;

  push(item: T): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const items = this.#items;
        if (this.#head < items.length) {
          const item = items[this.#head++]!;
          // Read to the end: start over, so the list does not hold what was read (nor, when
          // the reader lags, for long: most of it read, the rest moves to a new list).
          if (this.#head === items.length) {
            this.#items = [];
            this.#head = 0;
          } else if (this.#head >= 1024 && this.#head * 2 >= items.length) {
            this.#items = items.slice(this.#head);
            this.#head = 0;
          }
          return Promise.resolve({ value: item, done: false });
        }
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
      return: () => {
        this.#items = [];
        this.#head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
