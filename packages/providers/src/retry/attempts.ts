// Runs one synthesis with retries before the first audio byte: exponential backoff with jitter, stretched
// to an upstream's Retry-After when that still fits within one attempt's deadline.

import { ProviderError } from '../errors.js';
import type { SpeechAdapter, SpeechInput, SpeechResult, SynthesisContext } from '../types.js';
import { backoffDelayMs, sleep } from './backoff.js';

export interface AttemptSettings {
  maxAttempts: number;
  /** The per-attempt deadline; also the longest Retry-After the router is willing to wait for. */
  attemptTimeoutMs: number;
  backoffBaseMs: number;
}

export async function synthesizeWithRetries(
  adapter: SpeechAdapter,
  input: SpeechInput,
  context: SynthesisContext,
  settings: AttemptSettings,
): Promise<SpeechResult> {
  const { signal } = context;
  for (let attempt = 1; ; attempt += 1) {
    signal.throwIfAborted();
    let wait: number;
    try {
      // Once this resolves the first byte is in hand: later failures surface while iterating, never here.
      return await adapter.synthesize(input, context);
    } catch (error) {
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
