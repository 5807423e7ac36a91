// Neuphonic's live voice listing against the double, and the SDK-shaped base URL (a bare host).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { neuphonicBaseUrl, neuphonicSettings } from './neuphonic-settings.js';
import { listNeuphonicVoices, normalizeNeuphonicVoice } from './neuphonic-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('neuphonic');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('neuphonic voice listing', () => {
  it('reads {data: {voices}} with x-api-key and normalizes gender from tags', async () => {
    const voices = await listNeuphonicVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(voices).toHaveLength(6);
    expect(fake.requests[0]!.headers['x-api-key']).toBe(fake.apiKey);
    expect(voices.find((voice) => voice.name === 'Hannah')).toMatchObject({ language: 'en', labels: { gender: 'female', tags: 'british', type: 'stock' }, modelCompatibility: ['default'] });
    expect(voices.find((voice) => voice.name === 'Our Clone')).toMatchObject({ labels: { type: 'cloned' } });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listNeuphonicVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listNeuphonicVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('skips entries without an id or a name', () => {
    expect(normalizeNeuphonicVoice({ name: 'x' })).toBeUndefined();
    expect(normalizeNeuphonicVoice({ id: 'a', name: 'A', lang_code: 'not a tag' })!.language).toBe('und');
  });
});

describe('NEUPHONIC_BASE_URL', () => {
  it('takes the SDK shape (a host, https implied) or a full URL', () => {
    const schema = neuphonicSettings.baseUrl.schema;
    for (const value of ['api.neuphonic.com', 'eu.api.neuphonic.com:8443', 'https://api.neuphonic.com', 'http://127.0.0.1:9/neuphonic']) expect(schema.safeParse(value).success).toBe(true);
    for (const value of ['ftp://x', 'not a host', 'https://']) expect(schema.safeParse(value).success).toBe(false);
    expect(neuphonicBaseUrl(undefined)).toBe('https://api.neuphonic.com');
    expect(neuphonicBaseUrl('eu.api.neuphonic.com')).toBe('https://eu.api.neuphonic.com');
    expect(neuphonicBaseUrl('http://127.0.0.1:9')).toBe('http://127.0.0.1:9');
  });
});
