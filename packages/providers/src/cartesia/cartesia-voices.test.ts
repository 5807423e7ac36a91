// Cartesia's live voice listing against the fake: cursor paging, the version header, normalization, errors.

import { CARTESIA_CLONED_VOICE_ID, startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { CARTESIA_API_VERSION } from './cartesia-api-types.js';
import { listCartesiaVoices, normalizeCartesiaVoice } from './cartesia-voices.js';

let fake: FakeProviderServer;
const context = (pageSize?: number) => ({ signal: AbortSignal.timeout(5000), pageSize });

beforeAll(async () => {
  fake = await startFakeProvider('cartesia');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('cartesia voice listing', () => {
  it('pages with starting_after until has_more is false, clone included', async () => {
    const voices = await listCartesiaVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context(3));
    expect(voices).toHaveLength(8);
    expect(voices.map((voice) => voice.id)).toContain(CARTESIA_CLONED_VOICE_ID);
    const urls = fake.requests.map((request) => new URL(request.path, fake.origin));
    expect(urls).toHaveLength(3);
    expect(urls[0]!.searchParams.get('starting_after')).toBeNull();
    expect(urls[1]!.searchParams.get('starting_after')).toBe(voices[2]!.id);
    expect(urls[2]!.searchParams.get('starting_after')).toBe(voices[5]!.id);
    expect(urls[0]!.searchParams.getAll('expand[]')).toEqual(['preview_file_url']);
    expect(fake.requests[0]!.headers['cartesia-version']).toBe(CARTESIA_API_VERSION);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it('normalizes gender, language and previews', async () => {
    const voices = await listCartesiaVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(fake.requests).toHaveLength(1);
    const luis = voices.find((voice) => voice.name === 'Luis')!;
    expect(luis).toMatchObject({ language: 'es-ES', labels: { gender: 'male', access: 'public', tagline: 'News Caster' } });
    expect(luis.previewUrl).toContain('/__previews/cartesia/');
    expect(luis.modelCompatibility).toContain('sonic-3');
    const clone = voices.find((voice) => voice.id === CARTESIA_CLONED_VOICE_ID)!;
    expect(clone).toMatchObject({ name: 'Our Support Voice', language: 'fr', labels: { access: 'private', owner: 'account' } });
    expect(clone.labels.gender).toBeUndefined();
    expect(clone.previewUrl).toBeUndefined();
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listCartesiaVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listCartesiaVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('maps feminine, masculine and gender_neutral onto one vocabulary', () => {
    const gender = (value: string) => normalizeCartesiaVoice({ id: 'a', name: 'A', gender: value })!.labels.gender;
    expect([gender('feminine'), gender('masculine'), gender('gender_neutral')]).toEqual(['female', 'male', 'neutral']);
    expect(normalizeCartesiaVoice({ id: 'a', name: 'A', language: 'EN' })!.language).toBe('en');
    expect(normalizeCartesiaVoice({ name: 'A' })).toBeUndefined();
  });
});
