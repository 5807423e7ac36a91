// Resemble's live voice listing against the double: paging to num_pages, auth, normalization, errors.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { listResembleVoices, normalizeResembleVoice } from './resemble-voices.js';

let fake: FakeProviderServer;
const settings = () => ({ apiKey: fake.apiKey, baseUrl: `${fake.baseUrl}/api` });
const context = (pageSize?: number) => ({ signal: AbortSignal.timeout(5000), pageSize });

beforeAll(async () => {
  fake = await startFakeProvider('resemble');
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setBehavior('normal');
});

describe('resemble voice listing', () => {
  it('reads every page with Bearer auth, leaving out voices still training', async () => {
    const voices = await listResembleVoices(settings(), context());
    expect(voices.map((voice) => voice.id)).toEqual(['55592656', 'fb2d2858', '25c7823f', 'a72d9fca', '3f5e2c19']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    const url = new URL(fake.requests[0]!.path, fake.origin);
    expect(url.pathname).toBe('/resemble/api/v2/voices');
    expect(url.searchParams.get('page')).toBe('1');
    expect(voices.find((voice) => voice.id === 'a72d9fca')).toMatchObject({ name: 'Mateo', language: 'es-ES', modelCompatibility: ['chatterbox', 'chatterbox-turbo', 'chatterbox-multilingual'] });
  });

  it('follows num_pages when pages are small (page_size at least 10)', async () => {
    const original = globalThis.fetch;
    const pages: string[] = [];
    globalThis.fetch = (async (url: URL) => {
      const page = Number(url.searchParams.get('page'));
      pages.push(`${page}:${url.searchParams.get('page_size')}`);
      const items = [{ uuid: `v${page}`, name: `Voice ${page}`, default_language: 'en', voice_status: 'Ready' }];
      return new Response(JSON.stringify({ success: true, page, num_pages: 3, page_size: 10, items }), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    try {
      const voices = await listResembleVoices({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/api' }, context(2));
      expect(voices.map((voice) => voice.id)).toEqual(['v1', 'v2', 'v3']);
      expect(pages).toEqual(['1:10', '2:10', '3:10']);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('maps refusals and the error mode to categories without upstream text', async () => {
    expect(await rejectionOf(listResembleVoices({ ...settings(), apiKey: 'nope' }, context()))).toMatchObject({ failure: 'auth_failed' });
    fake.setBehavior({ status: 503 });
    const error = await rejectionOf(listResembleVoices(settings(), context()));
    expect(error).toMatchObject({ failure: 'server_error', statusCode: 503 });
    expect(String((error as Error).message)).not.toContain(fake.leakMarker);
  });

  it('refuses a body that is not a page and skips malformed voices', async () => {
    expect(normalizeResembleVoice({ uuid: 'x' })).toBeUndefined();
    expect(normalizeResembleVoice({ uuid: 'x', name: 'X', status: 'Ready' })!.language).toBe('und');
    expect(normalizeResembleVoice({ uuid: 'x', name: 'X', voice_status: 'Failed' })).toBeUndefined();
  });
});
