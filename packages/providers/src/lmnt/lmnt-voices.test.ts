// LMNT's live voice listing against the fake: one call with owner=all, the key and version headers,
// normalization (gender, owner, tags, previews), training clones left out, errors without upstream text.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { LMNT_CLONED_VOICE_ID, LMNT_TRAINING_VOICE_ID } from './lmnt-double-voices.js';
import { listLmntVoices, normalizeLmntVoice } from './lmnt-voices.js';
import { LMNT_API_VERSION } from './lmnt-api-types.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('lmnt');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('lmnt voice listing', () => {
  it('asks once for owner=all with the key and version headers, and keeps ready voices only', async () => {
    const voices = await listLmntVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(1);
    const url = new URL(fake.requests[0]!.path, fake.origin);
    expect(url.pathname).toBe('/v1/ai/voice/list');
    expect(url.searchParams.get('owner')).toBe('all');
    expect(fake.requests[0]!.headers['x-api-key']).toBe(fake.apiKey);
    expect(fake.requests[0]!.headers['lmnt-version']).toBe(LMNT_API_VERSION);
    expect(voices).toHaveLength(9);
    expect(voices.map((voice) => voice.id)).toContain(LMNT_CLONED_VOICE_ID);
    expect(voices.map((voice) => voice.id)).not.toContain(LMNT_TRAINING_VOICE_ID);
  });

  it('normalizes gender, owner, tags and previews; the language is undetermined', async () => {
    const voices = await listLmntVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    const leah = voices.find((voice) => voice.id === 'leah')!;
    expect(leah).toMatchObject({ name: 'Leah', language: 'und', labels: { gender: 'female', owner: 'system', tags: 'narration, calm' }, modelCompatibility: ['blizzard'] });
    expect(leah.previewUrl).toContain('/__previews/lmnt/leah.mp3');
    const preview = await fetch(leah.previewUrl!);
    expect(preview.headers.get('content-type')).toBe('audio/mpeg');
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const clone = voices.find((voice) => voice.id === LMNT_CLONED_VOICE_ID)!;
    expect(clone.labels).toEqual({ gender: 'neutral', owner: 'account', starred: 'true' });
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listLmntVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
    fake.setBehavior({ status: 503 });
    const error = await rejectionOf(listLmntVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 503 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('skips garbage entries and refuses a body that is not an array', () => {
    expect(normalizeLmntVoice({ name: 'No id' })).toBeUndefined();
    expect(normalizeLmntVoice({ id: 'x', name: 'X', state: 'training' })).toBeUndefined();
    expect(normalizeLmntVoice({ id: 'x', name: 'X', gender: 'M', tags: ['a', 3, ' '], preview_url: 'javascript:alert(1)' })).toEqual({
      id: 'x', name: 'X', language: 'und', labels: { gender: 'male', tags: 'a' }, modelCompatibility: ['blizzard'],
    });
  });
});
