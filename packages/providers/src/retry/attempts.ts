// Runs one synthesis with retries before the first audio byte: exponential backoff with jitter, stretched
// to an upstream's Retry-After when that still fits within one attempt's deadline.

import { InvalidSpeechRequestError, ProviderError } from '../errors.js';
import type { SpeechAdapter, SpeechInput, SpeechResult, SynthesisContext } from '../types.js';
import { backoffDelayMs, sleep } from './backoff.js';
import type { AbortSignalLike } from '../streaming/light-abort-signal.js';

export interface AttemptSettings {
  maxAttempts: number;
  /** The per-attempt deadline; also the longest Retry-After the router is willing to wait for. */
  attemptTimeoutMs: number;
  backoffBaseMs: number;
}

/** How one attempt ended: ok (audio began), the failure's category, aborted, rejected (invalid request), or error. */
export type AttemptOutcome = 'ok' | 'aborted' | 'rejected' | 'error' | ProviderError['category'];

/** Told about every upstream attempt (metrics). `attempt` counts from 1; every later one is a retry. */
export type AttemptObserver = (provider: string, attempt: number, outcome: AttemptOutcome) => void;

function outcomeOf(error: unknown, signal: AbortSignalLike): AttemptOutcome {
  if (signal.aborted) return 'aborted';
  if (error instanceof ProviderError) return error.category;
  return error instanceof InvalidSpeechRequestError ? 'rejected' : 'error';
}

export async function synthesizeWithRetries(
  adapter: SpeechAdapter,
  input: SpeechInput,
  context: SynthesisContext,
  settings: AttemptSettings,
  observe?: AttemptObserver,
): Promise<SpeechResult> {
  const { signal } = context;
  for (let attempt = 1; ; attempt += 1) {
    signal.throwIfAborted();
    let wait: number;
    try {
      // Once this resolves the first byte is in hand: later failures surface while iterating, never here.
      const result = await adapter.synthesize(input, context);
      observe?.(adapter.descriptor.id, attempt, 'ok');
      return result;
    } catch (error) {
      observe?.(adapter.descriptor.id, attempt, outcomeOf(error, signal));
      if (signal.aborted) throw signal.reason;
      if (!(error instanceof ProviderError)) throw error;
      error.attempts = attempt;
      if (!error.isRetryable || attempt >= settings.maxAttempts) throw error;
      wait = backoffDelayMs(attempt, settings.backoffBaseMs);
      if (error.retryAfterMs !== undefined) {
        // Upstream asked for a pause longer than one attempt may take: give up now with its category
        // rather than hold the client for longer than the deadline it was promised.
        if (error.retryAfterMs > settings.attemptTimeoutMs) throw error;
        wait = Math.max(wait, error.retryAfterMs);
      }
    }
    await sleep(wait, signal);
  }
}
