// Tracks the speech requests a data plane is serving, so a shutdown can stop taking new ones, let the
// running ones finish within a grace period, and end whatever is left the way the router's own
// deadline does (committed if audio was delivered).
import { RouterEndedStream } from './stream-end.js';

export interface InFlightRequests {
  /** True once a drain began: new speech requests are turned away. */
  readonly draining: boolean;
  readonly count: number;
  /** Registers a request; call the returned function exactly once when it is settled. */
  begin(abort: { abort(reason: unknown): void }): () => void;
  /** Stops new requests, waits up to `graceMs` for the running ones, then ends the rest. */
  drain(graceMs: number): Promise<{ finished: number; ended: number }>;
}

export function createInFlightRequests(): InFlightRequests {
  const active = new Set<{ abort(reason: unknown): void }>();
  let draining = false;
  let onIdle: (() => void) | undefined;

  const idle = () =>
    active.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          onIdle = resolve;
        });

  return {
    get draining() {
      return draining;
    },
    get count() {
      return active.size;
    },
    begin(abort) {
      active.add(abort);
      return () => {
        active.delete(abort);
        if (active.size === 0) onIdle?.();
      };
    },
    async drain(graceMs) {
      draining = true;
      const before = active.size;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      const ended = active.size;
      if (ended > 0) {
        const reason = new RouterEndedStream('shutdown');
        for (const abort of active) abort.abort(reason);
        // Ending a stream is prompt (the writer wakes, the upstream is cancelled); bound it anyway.
        await Promise.race([idle(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      }
      return { finished: before - ended, ended };
    },
  };
}
