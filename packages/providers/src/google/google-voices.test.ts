import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoiceListingError } from '../catalog/voice-listing.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { listGoogleVoices, normalizeGoogleVoice } from './google-voices.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('google');
});
afterAll(() => fake.close());

describe('listGoogleVoices', () => {
  it('lists every voice of the double with the API key, normalized', async () => {
    const voices = await listGoogleVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, { signal: AbortSignal.timeout(5000) });
    expect(voices).toHaveLength(8);
    expect(voices.find((voice) => voice.id === 'en-US-Chirp3-HD-Charon')).toEqual({
      id: 'en-US-Chirp3-HD-Charon', name: 'en-US-Chirp3-HD-Charon', language: 'en-US',
      labels: { gender: 'male', family: 'chirp3-hd', natural_sample_rate: '24000' }, modelCompatibility: ['chirp3-hd'],
    });
    expect(fake.requests.at(-1)!.headers['x-goog-api-key']).toBe(fake.apiKey);
  });

  it('fails with a listing error for a wrong key (Google answers 400)', async () => {
    const error = await listGoogleVoices({ apiKey: 'wrong', baseUrl: fake.baseUrl }, { signal: AbortSignal.timeout(5000) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VoiceListingError);
    expect(error).toMatchObject({ statusCode: 400 });
  });
});

describe('normalizeGoogleVoice', () => {
  it('reads numeric genders and tolerates odd entries', () => {
    expect(normalizeGoogleVoice({ name: 'xx-YY-Thing-A', languageCodes: ['xx-YY'], ssmlGender: 2 })).toMatchObject({ labels: { gender: 'female' } });
    expect(normalizeGoogleVoice({ name: 'en-US-Polyglot-1', languageCodes: [], ssmlGender: 0 })).toMatchObject({ language: 'und', labels: {} });
    expect(normalizeGoogleVoice({ languageCodes: ['en-US'] })).toBeUndefined();
    expect(normalizeGoogleVoice(null)).toBeUndefined();
  });
});
