// The speech plan checks provider_options against the provider's declared schema before anything is reserved.
import { createProviderRegistry } from '@voice-router/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { planSpeech } from './speech-plan.js';

const registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1, providers: { elevenlabs: { apiKey: 'k' } } });
afterAll(() => registry.close());

const plan = (providerOptions: unknown) =>
  planSpeech(
    Buffer.from(JSON.stringify({ model: 'elevenlabs/eleven_flash_v2_5', voice: 'EXAVITQu4vr4xnSDxMaL', input: 'Hi', provider_options: providerOptions })),
    (id) => registry.descriptor(id),
    (id, options) => registry.readProviderOptions(id, options),
  );

describe('planSpeech provider_options', () => {
  it('keeps accepted options, validated', () => {
    const planned = plan({ stability: 0.3, output_format: 'mp3_44100_192' });
    expect(planned.ok && planned.plan.input.providerOptions).toEqual({ stability: 0.3, output_format: 'mp3_44100_192' });
  });

  it('answers an unknown key with invalid_body naming it', () => {
    expect(plan({ stabilty: 0.3 })).toEqual({
      ok: false,
      code: 'invalid_body',
      details: expect.stringContaining('provider option "stabilty" is not accepted by elevenlabs'),
    });
  });

  it('answers a bad value with invalid_body naming the key', () => {
    expect(plan({ output_format: 'wav_44100' })).toMatchObject({ ok: false, code: 'invalid_body', details: expect.stringContaining('"output_format" is invalid') });
  });
});
