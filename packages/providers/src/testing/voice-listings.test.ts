// The ElevenLabs and Cartesia fakes' voice listings on the wire: auth, paging to the end, the clone, previews,
// and the error mode answering listings like everything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer } from './start-fake-provider.js';
import { ELEVENLABS_CLONED_VOICE_ID } from '../elevenlabs/elevenlabs-double-voices.js';
import { CARTESIA_CLONED_VOICE_ID } from '../cartesia/cartesia-double-voices.js';

let fake: CombinedFakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());

const json = async (path: string, headers: Record<string, string>) => {
  const response = await fetch(`${fake.origin}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('voice listings of the fakes', () => {
  it('elevenlabs: /v2/voices pages with next_page_token and ends with has_more false', async () => {
    const headers = { 'xi-api-key': fake.apiKey };
    expect((await json('/v2/voices', {})).status).toBe(401);
    const ids: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const { status, body } = await json(`/v2/voices?page_size=5${token ? `&next_page_token=${token}` : ''}`, headers);
      expect(status).toBe(200);
      ids.push(...(body.voices as Array<{ voice_id: string }>).map((voice) => voice.voice_id));
      token = body.next_page_token as string | null;
      expect(body.has_more).toBe(token !== null);
      pages += 1;
    } while (token);
    expect(pages).toBe(2);
    expect(ids).toHaveLength(9);
    expect(ids).toContain(ELEVENLABS_CLONED_VOICE_ID);
    expect((await json('/v2/voices?page_size=101', headers)).status).toBe(422);
    const preview = await fetch(`${fake.origin}/__previews/elevenlabs/21m00Tcm4TlvDq8ikWAM.mp3`);
    expect(preview.headers.get('content-type')).toBe('audio/mpeg');
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('cartesia: /voices pages with starting_after, needs the version header, expands previews', async () => {
    const headers = { authorization: `Bearer ${fake.apiKey}`, 'cartesia-version': '2026-08-14' };
    expect((await json('/voices', { authorization: headers.authorization })).status).toBe(400);
    const first = await json('/voices?limit=5&expand[]=preview_file_url', headers);
    expect(first.body).toMatchObject({ has_more: true });
    const last = (first.body.data as Array<{ id: string; preview_file_url: string | null }>).at(-1)!;
    expect(first.body.next_page).toBe(last.id);
    expect(last.preview_file_url).toContain('/__previews/cartesia/');
    const second = await json(`/voices?limit=5&starting_after=${last.id}`, headers);
    expect(second.body).toMatchObject({ has_more: false, next_page: null });
    expect((second.body.data as Array<{ id: string }>).map((voice) => voice.id)).toContain(CARTESIA_CLONED_VOICE_ID);
    expect((await json('/voices?starting_after=nope', headers)).status).toBe(400);
  });

  it('the error mode answers listings with the provider\'s error body', async () => {
    fake.setBehavior({ status: 503, times: 1 });
    const failed = await json('/v2/voices', { 'xi-api-key': fake.apiKey });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ detail: { status: 'system_busy' } });
    expect((await json('/v2/voices', { 'xi-api-key': fake.apiKey })).status).toBe(200);
  });
});
