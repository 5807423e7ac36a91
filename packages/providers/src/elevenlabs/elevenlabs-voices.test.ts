// ElevenLabs' live voice listing against the fake: paging to the end, normalization, the account's clone, errors.

import { ELEVENLABS_CLONED_VOICE_ID, startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VoiceListingError } from '../catalog/voice-listing.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listElevenLabsVoices, normalizeElevenLabsVoice } from './elevenlabs-voices.js';

let fake: FakeProviderServer;
const context = (pageSize?: number) => ({ signal: AbortSignal.timeout(5000), pageSize });

beforeAll(async () => {
  fake = await startFakeProvider('elevenlabs');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('elevenlabs voice listing', () => {
  it('follows next_page_token to the last page and includes the account clone', async () => {
    const voices = await listElevenLabsVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context(4));
    expect(voices).toHaveLength(9);
    expect(new Set(voices.map((voice) => voice.id)).size).toBe(9);
    expect(voices.map((voice) => voice.id)).toContain(ELEVENLABS_CLONED_VOICE_ID);
    const paths = fake.requests.map((request) => new URL(request.path, fake.origin));
    expect(paths.map((url) => url.pathname)).toEqual(['/v2/voices', '/v2/voices', '/v2/voices']);
    expect(paths[0]!.searchParams.get('next_page_token')).toBeNull();
    expect(paths[1]!.searchParams.get('next_page_token')).toBeTruthy();
    expect(paths.every((url) => url.searchParams.get('page_size') === '4')).toBe(true);
    expect(fake.requests[0]!.headers['xi-api-key']).toBe(fake.apiKey);
  });

  it('asks for the largest page by default', async () => {
    const voices = await listElevenLabsVoices({ apiKey: fake.apiKey, baseUrl: `${fake.baseUrl}/` }, context());
    expect(voices).toHaveLength(9);
    expect(fake.requests).toHaveLength(1);
    expect(new URL(fake.requests[0]!.path, fake.origin).searchParams.get('page_size')).toBe('100');
  });

  it('normalizes premade and cloned voices', async () => {
    const voices = await listElevenLabsVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    const rachel = voices.find((voice) => voice.name === 'Rachel')!;
    expect(rachel).toMatchObject({ id: '21m00Tcm4TlvDq8ikWAM', language: 'en-US', labels: { gender: 'female', accent: 'american', category: 'premade' } });
    expect(rachel.previewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__previews\/elevenlabs\/21m00Tcm4TlvDq8ikWAM\.mp3$/);
    expect(rachel.modelCompatibility).toContain('eleven_flash_v2_5');
    const clone = voices.find((voice) => voice.id === ELEVENLABS_CLONED_VOICE_ID)!;
    // Its only hints are labels: language `de`, gender `Female` (capitalised by its owner).
    expect(clone).toMatchObject({ name: 'My Cloned Voice', language: 'de', labels: { gender: 'female', category: 'cloned', owner: 'account' } });
    expect(clone.previewUrl).toBeUndefined();
    expect(clone.modelCompatibility.length).toBeGreaterThan(0);
  });

  it('reports a refused key as auth_failed without the upstream text', async () => {
    const error = await rejectionOf(listElevenLabsVoices({ apiKey: 'wrong', baseUrl: fake.baseUrl }, context()));
    expect(error).toBeInstanceOf(VoiceListingError);
    expect(error).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('rejects rather than returning part of the list when a page fails', async () => {
    // The fake's error mode answers every request with the provider's 503 body.
    fake.setBehavior({ status: 503 });
    const error = await rejectionOf(listElevenLabsVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context(4)));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 503 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('skips entries without an id or a name and canonicalises language tags', () => {
    expect(normalizeElevenLabsVoice({ name: 'no id' })).toBeUndefined();
    expect(normalizeElevenLabsVoice({ voice_id: 'x', name: '  ' })).toBeUndefined();
    const voice = normalizeElevenLabsVoice({ voice_id: 'x', name: 'X', verified_languages: [{ locale: 'pt_br' }], labels: { gender: 7 } })!;
    expect(voice.language).toBe('pt-BR');
    expect(voice.labels.gender).toBeUndefined();
    expect(normalizeElevenLabsVoice({ voice_id: 'y', name: 'Y', preview_url: 'javascript:alert(1)' })!.previewUrl).toBeUndefined();
    expect(normalizeElevenLabsVoice({ voice_id: 'z', name: 'Z' })!.language).toBe('und');
  });
});
