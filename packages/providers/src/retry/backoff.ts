// Delays between attempts: exponential in the attempt number with jitter, so synchronized clients spread out.

import type { AbortSignalLike } from '../streaming/light-abort-signal.js';

/** No single wait exceeds this, whatever the attempt count. */
export const MAX_BACKOFF_MS = 5000;

/** Delay before attempt `attempt + 1`: base × 2^(attempt−1), scaled by a random factor in [0.5, 1). */
export function backoffDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(MAX_BACKOFF_MS, Math.round(exponential * (0.5 + random() * 0.5)));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignalLike): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
