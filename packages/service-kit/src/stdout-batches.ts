// Log lines to stdout in batches, without ever stopping the process for its reader. Lines gather in a
// string and go out as one write of at least batchBytes, or whatever has gathered after flushMs. A write
// goes through process.stdout: on a pipe or socket that is libuv's stream write, tried at once on the
// event loop (no thread pool) and, when the pipe is full, queued and finished when the reader catches up;
// on a file or terminal it is a synchronous write. If the reader falls so far behind that more than
// maxQueuedBytes wait, new batches are dropped and counted, and the next batch that can be written
// starts with a warning line saying how many lines were lost: memory stays bounded and the audio path
// never waits for a log reader.
//
// (pino's synchronous destination, used before, sleeps the whole event loop 100 ms each time a
// non-blocking pipe answers EAGAIN: a log reader a few hundred kilobytes behind froze every stream.)
import fs from 'node:fs';

/** Where batches go: process.stdout, or a stand-in with the same members (tests). */
export interface BatchTarget {
  write(chunk: string): boolean;
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
  removeListener(event: 'drain', listener: () => void): unknown;
}

export interface StdoutBatchOptions {
  batchBytes: number;
  flushMs: number;
  /** Bytes the target may hold unwritten before batches are dropped. */
  maxQueuedBytes: number;
  /** The file descriptor behind the target, for the last synchronous write at exit (1 for stdout). */
  fd?: number;
  /** The time field of the warning line (the logger's format). */
  now?: () => string;
  /** The app field of the warning line. */
  app?: string;
}

/** How long the exit-time write keeps retrying a full pipe before giving the rest up. */
const EXIT_WRITE_BUDGET_MS = 1_000;

export class StdoutBatches {
  readonly #target: BatchTarget;
  readonly #options: StdoutBatchOptions;
  #pending = '';
  #lines = 0;
  #dropped = 0;
  #broken = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(target: BatchTarget, options: StdoutBatchOptions) {
    this.#target = target;
    this.#options = options;
  }

  /** Lines dropped since the last warning was written (the reader was too far behind). */
  get dropped(): number {
    return this.#dropped;
  }

  /** The target failed (the reader went away: EPIPE): nothing more is written. */
  markBroken(): void {
    this.#broken = true;
    this.#pending = '';
    this.#lines = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  write(line: string): void {
    if (this.#broken) return;
    this.#pending += line;
    this.#lines += 1;
    if (this.#pending.length >= this.#options.batchBytes) this.flush();
    else this.#arm();
  }

  /**
   * Hands what has gathered to the target now, or drops it (counted) when the target is too far behind.
   * While lines are counted as dropped, the flush comes back every flushMs until the warning is written.
   */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#broken || (this.#pending.length === 0 && this.#dropped === 0)) return;
    if (this.#target.writableLength > this.#options.maxQueuedBytes) {
      this.#dropped += this.#take().lines;
      this.#arm();
      return;
    }
    this.#target.write(this.#withWarning(this.#take().text));
  }

  /** Resolves once the target has written everything handed to it (the warning too), or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.flush();
      const remaining = deadline - Date.now();
      if (this.#broken || remaining <= 0 || (this.#target.writableLength === 0 && this.#dropped === 0)) return;
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      this.#target.once('drain', wake);
      // Also wakes a drain that has nothing queued but a warning still to write.
      const timer = setTimeout(wake, Math.min(remaining, this.#options.flushMs));
      await woken;
      clearTimeout(timer);
      this.#target.removeListener('drain', wake);
    }
  }

  #arm(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, this.#options.flushMs);
    this.#timer.unref();
  }

  /**
   * At exit, when nothing asynchronous can finish: what is still gathered is written with write(2)
   * directly, retrying a full pipe for up to a second. (Batches already queued in the target when the
   * process exits are lost with it; a graceful stop drains them first.)
   */
  flushSync(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if ((this.#pending.length === 0 && this.#dropped === 0) || this.#broken || this.#options.fd === undefined) return;
    let buffer = Buffer.from(this.#withWarning(this.#take().text));
    const deadline = Date.now() + EXIT_WRITE_BUDGET_MS;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (buffer.length > 0 && Date.now() < deadline) {
      try {
        buffer = buffer.subarray(fs.writeSync(this.#options.fd, buffer));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(pause, 0, 0, 5);
      }
    }
  }

  #take(): { text: string; lines: number } {
    const batch = { text: this.#pending, lines: this.#lines };
    this.#pending = '';
    this.#lines = 0;
    return batch;
  }

  #withWarning(text: string): string {
    if (this.#dropped === 0) return text;
    const time = this.#options.now?.() ?? new Date().toISOString();
    const app = this.#options.app === undefined ? '' : `"app":${JSON.stringify(this.#options.app)},`;
    const warning = `{"level":"warn","time":"${time}",${app}"msg":"stdout was not read fast enough: log lines were dropped","droppedLines":${this.#dropped}}\n`;
    this.#dropped = 0;
    return warning + text;
  }
}
