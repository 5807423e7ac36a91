// Smallest.ai's live voice listing against the double: auth, camelCase normalization, language names, errors.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listSmallestVoices, normalizeSmallestVoice } from './smallest-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('smallest');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('smallest voice listing', () => {
  it('reads the Lightning v3.1 catalogue with Bearer auth and normalizes it', async () => {
    const voices = await listSmallestVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(voices).toHaveLength(5);
    expect(fake.requests[0]!.path).toBe('/waves/v1/lightning-v3.1/get_voices');
    expect(voices.find((voice) => voice.id === 'arnav')).toMatchObject({
      name: 'Arnav',
      language: 'hi',
      labels: { gender: 'male', accent: 'indian', age: 'adult', languages: 'hi,en', emotions: 'neutral', usecases: 'narration' },
      modelCompatibility: ['lightning_v3.1', 'lightning_v3.1_pro'],
    });
    expect(voices.find((voice) => voice.id === 'voice_a1b2c3d4')).toMatchObject({ language: 'und', labels: {} });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listSmallestVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 502 });
    const error = await rejectionOf(listSmallestVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 502 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('skips entries without an id or a name', () => {
    expect(normalizeSmallestVoice({ voiceId: 'x' })).toBeUndefined();
    expect(normalizeSmallestVoice({ voice_id: 'x', displayName: 'X' })).toBeUndefined();
  });
});
