// Maps failures of the in-process synthesizer onto the package's error types.

import { SynthesizerBusyError, UnknownVoiceError } from '@voice-router/speech-espeak';
import { InvalidSpeechRequestError, ProviderError, quoteName } from '../errors.js';

export function mapLocalError(error: unknown, phase: 'before-first-byte' | 'streaming'): Error {
  if (error instanceof UnknownVoiceError) return new InvalidSpeechRequestError(`unknown local voice ${quoteName(error.voice)}`);
  // A full queue is not worth an immediate retry: the caller hears when to come back.
  if (error instanceof SynthesizerBusyError) {
    return new ProviderError({
      provider: 'local', kind: 'overloaded', category: 'upstream_rate_limited', isRetryable: false, retryAfterMs: error.retryAfterMs, detail: 'the synthesis queue is full',
    });
  }
  if (error instanceof RangeError || error instanceof TypeError) return new InvalidSpeechRequestError('the local synthesizer rejected the request');
  // A crashed or closed worker: worth another attempt, like a dropped connection.
  return new ProviderError({
    provider: 'local',
    kind: 'network',
    category: 'upstream_network_error',
    isRetryable: true,
    detail: `synthesizer failed ${phase === 'streaming' ? 'mid-stream' : 'before audio'}`,
  });
}
