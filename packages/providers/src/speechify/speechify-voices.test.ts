// Speechify's live voice listing against the double: auth, normalization, model compatibility, errors.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listSpeechifyVoices, normalizeSpeechifyVoice } from './speechify-voices.js';

let fake: FakeProviderServer;
const context = () => ({ signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  fake = await startFakeProvider('speechify');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('speechify voice listing', () => {
  it('reads the whole catalogue with Bearer auth and normalizes it', async () => {
    const voices = await listSpeechifyVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(voices).toHaveLength(6);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    const imogen = voices.find((voice) => voice.id === 'imogen_32')!;
    expect(imogen).toMatchObject({ name: 'Imogen', language: 'en-GB', labels: { gender: 'female', type: 'shared' }, modelCompatibility: ['simba-3.0', 'simba-3.2'] });
    expect(imogen.previewUrl).toMatch(/^https:\/\//);
    const own = voices.find((voice) => voice.labels.type === 'personal')!;
    expect(own.labels.gender).toBeUndefined();
    expect(own.previewUrl).toBeUndefined();
  });

  it('follows the opt-in paged shape to the end', async () => {
    const pages = [
      { voices: [{ id: 'a', display_name: 'A', locale: 'en-US', models: [] }], has_more: true, next_cursor: 'c1' },
      { voices: [{ id: 'b', display_name: 'B', locale: 'fr-FR', models: [{ name: 'simba-multilingual', languages: [] }] }], has_more: false },
    ];
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (url: URL) => {
      seen.push(url.searchParams.get('cursor') ?? '');
      return new Response(JSON.stringify(pages[seen.length - 1]), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    try {
      const voices = await listSpeechifyVoices({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' }, context());
      expect(voices.map((voice) => voice.id)).toEqual(['a', 'b']);
      expect(voices[1]!.modelCompatibility).toEqual(['simba-multilingual']);
      expect(seen).toEqual(['', 'c1']);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listSpeechifyVoices({ apiKey: 'nope', baseUrl: fake.baseUrl }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 500 });
    const error = await rejectionOf(listSpeechifyVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 500 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('skips entries without an id or name', () => {
    expect(normalizeSpeechifyVoice({ id: 'x' })).toBeUndefined();
    expect(normalizeSpeechifyVoice('x')).toBeUndefined();
    expect(normalizeSpeechifyVoice({ id: 'x', display_name: 'X', locale: 'nope nope' })!.language).toBe('und');
  });
});
