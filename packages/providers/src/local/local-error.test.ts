// A full local synthesis queue becomes a non-retryable `overloaded` ProviderError carrying a Retry-After.
import { describe, expect, it } from 'vitest';
import { SynthesizerBusyError, type LocalSynthesizer } from '@voice-router/speech-espeak';
import { ProviderError } from '../errors.js';
import { createProviderRegistry } from '../registry.js';
import { localProvider } from './index.js';
import { createLocalSpeechAdapter } from './local-speech-adapter.js';
import { mapLocalError } from './local-error.js';

const busySynthesizer: LocalSynthesizer = {
  voices: () => [{ id: 'en-us', name: 'English (US)', language: 'en-US', espeakName: 'en-us' } as never],
  synthesize: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new SynthesizerBusyError(250)) }),
  }),
  workerThreads: () => 1,
  close: async () => undefined,
};

describe('a full local synthesis queue', () => {
  it('maps to an overloaded ProviderError that is never retried', () => {
    expect(mapLocalError(new SynthesizerBusyError(250), 'before-first-byte')).toMatchObject({
      provider: 'local', kind: 'overloaded', isRetryable: false, retryAfterMs: 250,
    });
  });

  it('reaches the registry caller after one attempt', async () => {
    let attempts = 0;
    const module = {
      ...localProvider,
      create: () => {
        const adapter = createLocalSpeechAdapter({ firstByteTimeoutMs: 1_000, synthesizer: busySynthesizer });
        return { ...adapter, synthesize: (...args: Parameters<typeof adapter.synthesize>) => (attempts++, adapter.synthesize(...args)) };
      },
    };
    const registry = createProviderRegistry({ attemptTimeoutMs: 1_000, maxAttempts: 3 }, [module as never]);
    const error = await registry
      .synthesize('local', { modelId: 'espeak-ng', voice: 'en-us', text: 'hi', format: 'pcm', providerOptions: {} }, { signal: new AbortController().signal })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'overloaded', retryAfterMs: 250 });
    expect(attempts).toBe(1);
    await registry.close();
  });
});
