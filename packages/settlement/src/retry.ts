// Capped exponential backoff with jitter, within a time window, stoppable at shutdown.
import type { RetryPolicy } from './settler.js';

export class RetryStoppedError extends Error {
  override readonly name = 'RetryStoppedError';
}

export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  // Full jitter on the upper half keeps many retrying settlements from hitting the database in step.
  return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, the window closes (the last error is thrown), or `signal` aborts
 * (RetryStoppedError). `onFailure` hears about each failed attempt.
 */
export async function retryWithin<T>(
  attempt: (round: number) => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  onFailure?: (error: unknown, round: number) => void,
): Promise<T> {
  const started = Date.now();
  for (let round = 1; ; round += 1) {
    if (signal.aborted) throw new RetryStoppedError('stopped');
    try {
      return await attempt(round);
    } catch (error) {
      onFailure?.(error, round);
      const delay = backoffDelay(policy, round);
      if (Date.now() - started + delay > policy.windowMs) throw error;
      await pause(delay, signal);
    }
  }
}
