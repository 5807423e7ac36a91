// Hume's live voice listing against the fake: both providers, page_number paging to total_pages, the key header,
// normalization (provider label, compatible models), errors without upstream text.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { HUME_CUSTOM_VOICE } from './hume-double-voices.js';
import { listHumeVoices, normalizeHumeVoice } from './hume-voices.js';

let fake: FakeProviderServer;
const context = (pageSize?: number) => ({ signal: AbortSignal.timeout(5000), pageSize });

beforeAll(async () => {
  fake = await startFakeProvider('hume');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('hume voice listing', () => {
  it('pages the library then the account\'s voices by page_number until total_pages', async () => {
    const voices = await listHumeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context(3));
    expect(voices).toHaveLength(8);
    const urls = fake.requests.map((request) => new URL(request.path, fake.origin));
    expect(urls.map((url) => [url.pathname, url.searchParams.get('provider'), url.searchParams.get('page_number'), url.searchParams.get('page_size')])).toEqual([
      ['/v0/tts/voices', 'HUME_AI', '0', '3'],
      ['/v0/tts/voices', 'HUME_AI', '1', '3'],
      ['/v0/tts/voices', 'HUME_AI', '2', '3'],
      ['/v0/tts/voices', 'CUSTOM_VOICE', '0', '3'],
    ]);
    expect(fake.requests[0]!.headers['x-hume-api-key']).toBe(fake.apiKey);
  });

  it('normalizes ids, provider labels and compatible models', async () => {
    const voices = await listHumeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(2);
    expect(voices.find((voice) => voice.name === 'Ava Song')).toEqual({
      id: '5bb7de05-c8fe-426a-8fcc-ba4fc4ce9f9c', name: 'Ava Song', language: 'und', labels: { provider: 'HUME_AI' }, modelCompatibility: ['octave-1', 'octave-2'],
    });
    expect(voices.find((voice) => voice.name === 'Imani Carter')!.modelCompatibility).toEqual(['octave-2']);
    expect(voices.find((voice) => voice.id === HUME_CUSTOM_VOICE.id)!.labels).toEqual({ provider: 'CUSTOM_VOICE', owner: 'account' });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listHumeVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
    fake.setBehavior({ status: 429 });
    const error = await rejectionOf(listHumeVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'rate_limited', statusCode: 429 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('reads compatible_octave_models as versions or ids and skips garbage', () => {
    const models = (value: unknown) => normalizeHumeVoice({ id: 'a', name: 'A', compatible_octave_models: value })!.modelCompatibility;
    expect(models(['1'])).toEqual(['octave-1']);
    expect(models(['octave-2', 2])).toEqual(['octave-2']);
    expect(models(['9'])).toEqual(['octave-1', 'octave-2']);
    expect(models(undefined)).toEqual(['octave-1', 'octave-2']);
    expect(normalizeHumeVoice({ id: 'a' })).toBeUndefined();
  });
});
