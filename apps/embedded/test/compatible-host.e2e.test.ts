// An OpenAI-compatible host added by settings alone (OPENAI_COMPATIBLE_*), end to end in the embedded process:
// listed in /v1/providers with the operator's (overridden) price, served at `<name>/<model>` through the OpenAI
// double and charged that price, its key kept out of the logs; a bad declaration stops the start.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { settled } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

describe('an OpenAI-compatible host declared by settings (embedded mode)', () => {
  let fake: FakeProviderServer;
  let system: RunningSystem;
  let user: { key: string };

  beforeAll(async () => {
    fake = await startFakeProvider('openai');
    system = await startSystem({
      mode: 'embedded',
      environment: {
        OPENAI_COMPATIBLE_ACME_SPEECH_BASE_URL: fake.baseUrl,
        OPENAI_COMPATIBLE_ACME_SPEECH_API_KEY: fake.apiKey,
        OPENAI_COMPATIBLE_ACME_SPEECH_MODELS: 'tts-1=12.5,gpt-4o-mini-tts=30',
        OPENAI_COMPATIBLE_ACME_SPEECH_VOICES: 'alloy,coral',
        PRICING_JSON: '{"acme-speech/tts-1": {"microsPerUnit": 20}}',
      },
    });
    user = await fundedKey(system, '1');
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('is listed with its models, voices and the price in force', async () => {
    const headers = { authorization: `Bearer ${user.key}` };
    const { providers } = (await (await fetch(`${system.baseUrl}/v1/providers`, { headers })).json()) as { providers: Array<Record<string, any>> };
    const acme = providers.find((provider) => provider.id === 'acme-speech')!;
    // The host's base URL (often internal) is not published to clients.
    expect(JSON.stringify(acme)).not.toContain(fake.baseUrl);
    expect(acme.models.map((model: { id: string; pricing: { microsPerUnit: number } }) => [model.id, model.pricing.microsPerUnit])).toEqual([
      ['tts-1', 20],
      ['gpt-4o-mini-tts', 30],
    ]);
    const { voices } = (await (await fetch(`${system.baseUrl}/v1/voices?provider=acme-speech`, { headers })).json()) as { voices: Array<{ id: string }> };
    expect(voices.map((voice) => voice.id)).toEqual(['alloy', 'coral']);
  });

  it('serves acme-speech/tts-1 through the host with the official OpenAI SDK and charges the overridden price', async () => {
    const client = new OpenAI({ baseURL: `${system.baseUrl}/v1`, apiKey: user.key, maxRetries: 0 });
    const before = await settled(system.baseUrl, user.key);
    const input = 'Hello from a compatible host';
    const response = await client.audio.speech.create({ model: 'acme-speech/tts-1', voice: 'coral', input, response_format: 'pcm' }).asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-router-provider')).toBe('acme-speech');
    expect(response.headers.get('x-router-cost-micros')).toBe(String(input.length * 20));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length % 2).toBe(0);
    const upstream = fake.requests.at(-1)!;
    expect(upstream.path).toBe('/v1/audio/speech');
    expect(upstream.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(upstream.body).toMatchObject({ model: 'tts-1', voice: 'coral', input, response_format: 'pcm' });
    expect(await settled(system.baseUrl, user.key)).toEqual({ balanceMicros: before.balanceMicros - input.length * 20, reservedMicros: 0 });
    expect(system.logs()).not.toContain(fake.apiKey);
  });

  it('refuses to start with a declaration that collides with a built-in provider', async () => {
    const failed = await startSystem({
      mode: 'embedded',
      environment: { OPENAI_COMPATIBLE_OPENAI_BASE_URL: fake.baseUrl, OPENAI_COMPATIBLE_OPENAI_MODELS: 'tts-1=15' },
    }).then((started) => started.close().then(() => undefined), (error: unknown) => error);
    expect(String(failed)).toContain("the id openai is a built-in provider's");
  });
});
