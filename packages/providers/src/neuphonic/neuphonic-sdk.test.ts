// Fidelity: the official @neuphonic/neuphonic-js SDK (pinned) pointed at the double must accept its answers: the
// SSE stream its EventSource reads, the voice list its zod schema parses. The SDK always builds https:// URLs
// from a bare host (its NEUPHONIC_BASE_URL shape); the test rewrites that scheme to reach the plain-http double.

import { createClient } from '@neuphonic/neuphonic-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { buildNeuphonicSpeechRequest } from './neuphonic-speech-model.js';

let fake: FakeProviderServer;
let host: string;
const originalFetch = globalThis.fetch;
const voice = 'eeb488b8-d532-4235-aa57-f070cfc44750';

beforeAll(async () => {
  fake = await startFakeProvider('neuphonic');
  host = fake.baseUrl.replace(/^http:\/\//, '');
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    return originalFetch(url.startsWith(`https://${host}`) ? `http://${url.slice('https://'.length)}` : input, init);
  }) as typeof fetch;
});
afterAll(async () => {
  globalThis.fetch = originalFetch;
  await fake.close();
});

describe('@neuphonic/neuphonic-js against the double', () => {
  it('tts.sse collects the base64 events into the tone samples, sent at the router path with its body fields', async () => {
    const client = createClient({ baseURL: host, apiKey: fake.apiKey });
    const sse = await client.tts.sse({ lang_code: 'en', voice_id: voice, speed: 1.2, sampling_rate: 22050, encoding: 'pcm_linear' });
    const text = 'Hello from the SDK.';
    const result = await sse.send(text);
    expect(result.sampling_rate).toBe(22050);
    expect(Math.abs(result.audio.byteLength / 2 / 22050 - Math.max(0.5, text.length / 15))).toBeLessThan(0.1);

    const recorded = fake.requests.find((request) => request.path.startsWith('/neuphonic/sse/speak/'))!;
    expect(new URL(recorded.path, fake.origin).searchParams.get('api_key')).toBe(fake.apiKey);
    expect(recorded.headers['x-api-key']).toBe(fake.apiKey);
    const ours = buildNeuphonicSpeechRequest({ modelId: 'default', voice, text, speed: 1.2, format: 'pcm', providerOptions: {} }, { apiKey: fake.apiKey, settings: {} });
    // The router keeps the key out of the URL; the path and every body field but the rate it chose match.
    expect(new URL(recorded.path, fake.origin).pathname).toBe(`/neuphonic${ours.path}`);
    expect(recorded.body).toEqual({ ...(JSON.parse(ours.body) as Record<string, unknown>), sampling_rate: 22050 });
  });

  it('voices.list parses the double voice list with the SDK schema', async () => {
    const voices = await createClient({ baseURL: host, apiKey: fake.apiKey }).voices.list();
    expect(voices.find((entry: { voice_id: string }) => entry.voice_id === voice)).toMatchObject({ name: 'Hannah', lang_code: 'en', type: 'stock' });
  });

  it('reports the double refusals as the SDK does', async () => {
    const wrong = createClient({ baseURL: host, apiKey: 'wrong' });
    // The list's {detail} answer matches the SDK's error schema, so it throws instead of returning voices.
    await expect(wrong.voices.list()).rejects.toThrow(/list voice/);
    // The SDK resolves an SSE that failed to open with no audio (its EventSource reports only "error").
    const empty = await (await wrong.tts.sse({ lang_code: 'en', voice_id: voice })).send('Hi');
    expect(empty.audio.byteLength).toBe(0);
  });
});
