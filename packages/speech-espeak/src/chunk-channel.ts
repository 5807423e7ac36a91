// Bridges the pool's push-style callbacks to a pull-style async iterator, holding chunks not yet read.
import type { JobSink } from './worker-pool.js';

interface Waiter {
  resolve(chunk: Uint8Array | undefined): void;
  reject(error: unknown): void;
}

export class ChunkChannel implements JobSink {
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiter: Waiter | undefined;

  chunk(bytes: Uint8Array): void {
    if (this.#ended) return;
    if (this.#waiter) this.#takeWaiter().resolve(bytes);
    else this.#chunks.push(bytes);
  }

  done(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#waiter) this.#takeWaiter().resolve(undefined);
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = { error };
    if (this.#waiter) this.#takeWaiter().reject(error);
  }

  /** The next chunk, or undefined at the end. A failure wins over unread chunks so aborts are prompt. */
  next(): Promise<Uint8Array | undefined> {
    if (this.#failure) return Promise.reject(this.#failure.error);
    const chunk = this.#chunks.shift();
    if (chunk || this.#ended) return Promise.resolve(chunk);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  #takeWaiter(): Waiter {
    const waiter = this.#waiter!;
    this.#waiter = undefined;
    return waiter;
  }
}
