// Fish Audio's live voice listing against the fake: the account's own models (self=true), page_number paging to
// total, normalization (language, gender tag, previews), training models left out, errors without upstream text.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { FISH_OWN_VOICE_ID, FISH_TRAINING_VOICE_ID } from './fish-double-voices.js';
import { listFishVoices, normalizeFishVoice } from './fish-voices.js';

let fake: FakeProviderServer;
const context = (pageSize?: number) => ({ signal: AbortSignal.timeout(5000), pageSize });

beforeAll(async () => {
  fake = await startFakeProvider('fish');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('fish voice listing', () => {
  it('pages the account\'s models with page_number from 1 until total, trained ones only', async () => {
    const voices = await listFishVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context(3));
    const urls = fake.requests.map((request) => new URL(request.path, fake.origin));
    expect(urls.map((url) => [url.pathname, url.searchParams.get('self'), url.searchParams.get('page_number'), url.searchParams.get('page_size')])).toEqual([
      ['/model', 'true', '1', '3'],
      ['/model', 'true', '2', '3'],
    ]);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(voices.map((voice) => voice.name)).toEqual(['Our Support Voice', 'Our Announcer', 'Our Storyteller']);
    expect(voices.map((voice) => voice.id)).not.toContain(FISH_TRAINING_VOICE_ID);
  });

  it('normalizes language, gender tags and previews; the voices speak with every model', async () => {
    const voices = await listFishVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(1);
    const own = voices.find((voice) => voice.id === FISH_OWN_VOICE_ID)!;
    expect(own).toMatchObject({ language: 'en', labels: { owner: 'account', tags: 'support', visibility: 'private', languages: 'en, es' } });
    expect(own.labels.gender).toBeUndefined();
    expect(own.modelCompatibility).toEqual(['s2.1-pro', 's2-pro', 's1', 'speech-1.6', 'speech-1.5']);
    const announcer = voices.find((voice) => voice.name === 'Our Announcer')!;
    expect(announcer).toMatchObject({ language: 'pt-BR', labels: { gender: 'male' } });
    const preview = await fetch(announcer.previewUrl!);
    expect(preview.headers.get('content-type')).toBe('audio/mpeg');
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listFishVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listFishVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('reads samples as an array or one object, and skips what cannot speak', () => {
    expect(normalizeFishVoice({ _id: 'a', title: 'A', samples: { audio: 'https://cdn.example/a.mp3' } })!.previewUrl).toBe('https://cdn.example/a.mp3');
    expect(normalizeFishVoice({ _id: 'a', title: 'A', type: 'svc' })).toBeUndefined();
    expect(normalizeFishVoice({ _id: 'a', title: 'A', state: 'failed' })).toBeUndefined();
    expect(normalizeFishVoice({ title: 'A' })).toBeUndefined();
    expect(normalizeFishVoice({ _id: 'a', title: 'A', tags: ['F', 'warm'], languages: ['xx_YY_bad!'] })).toMatchObject({ language: 'und', labels: { gender: 'female', tags: 'F, warm' } });
  });
});
