// Murf's live voice listing against the fake: both models' lists merged, normalization, errors.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listMurfVoices, normalizeMurfVoice } from './murf-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('murf');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('murf voice listing', () => {
  it('reads the FALCON and GEN2 lists with the api-key header and merges them by id', async () => {
    const voices = await listMurfVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests.map((request) => request.path)).toEqual(['/v1/speech/voices?model=FALCON', '/v1/speech/voices?model=GEN2']);
    expect(fake.requests[0]!.headers['api-key']).toBe(fake.apiKey);
    expect(voices).toHaveLength(5);
    expect(voices.find((voice) => voice.id === 'en-US-natalie')!.modelCompatibility).toEqual(['FALCON', 'GEN2']);
    expect(voices.find((voice) => voice.id === 'en-US-river')!.modelCompatibility).toEqual(['GEN2']);
  });

  it('normalizes language, gender, locales and styles', async () => {
    const voices = await listMurfVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(voices.find((voice) => voice.id === 'en-US-natalie')).toMatchObject({
      name: 'Natalie',
      language: 'en-US',
      labels: { gender: 'female', locales: 'en-US,es-ES', styles: 'Conversational,Promo' },
    });
    expect(voices.find((voice) => voice.id === 'en-US-river')!.labels.gender).toBe('neutral');
    expect(normalizeMurfVoice({ displayName: 'No id' }, 'FALCON')).toBeUndefined();
    expect(normalizeMurfVoice({ voiceId: 'x' }, 'FALCON')).toMatchObject({ id: 'x', name: 'x', language: 'und' });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listMurfVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 503 });
    const error = await rejectionOf(listMurfVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 503 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });
});
