// The Resemble double's auth (Bearer, the SDK's x-access-token), validation, error bodies, streaming WAV and
// paged voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { voice_uuid: '55592656', data: 'Hello from the fake.', precision: 'PCM_16', sample_rate: 44100, model: 'chatterbox' };

beforeAll(async () => {
  fake = await startFakeProvider('resemble');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/stream`, headers, payload);
const auth = () => ({ authorization: `Bearer ${fake.apiKey}` });
const voices = (query: string, headers: Record<string, string> = auth()) => fetch(`${fake.baseUrl}/api/v2/voices?${query}`, { headers });

describe('resemble double', () => {
  it('refuses a wrong key with {success: false, message}', async () => {
    const result = await speak({ authorization: 'Bearer wrong' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as Record<string, unknown>;
    expect(error).toEqual({ success: false, message: expect.stringContaining(fake.leakMarker) });
  });

  it('takes the key as Bearer or as the SDK x-access-token', async () => {
    expect((await speak(auth())).status).toBe(200);
    expect((await speak({ 'x-access-token': fake.apiKey })).status).toBe(200);
  });

  it('answers 400 for bad bodies and 404 for unknown or untrained voices', async () => {
    expect((await speak(auth(), { ...body, data: '' })).status).toBe(400);
    expect((await speak(auth(), { ...body, data: 'x'.repeat(3001) })).status).toBe(400);
    expect((await speak(auth(), { ...body, sample_rate: 12345 })).status).toBe(400);
    expect((await speak(auth(), { ...body, model: 'chatterbox-9' })).status).toBe(400);
    expect((await speak(auth(), { ...body, voice_uuid: '00000000' })).status).toBe(404);
    expect((await speak(auth(), { ...body, voice_uuid: '9b0c1d2e' })).status).toBe(404);
  });

  it('streams a 16-bit mono WAV at the asked rate', async () => {
    const result = await speak(auth());
    expect(result.status).toBe(200);
    expect(Buffer.from(result.bytes.subarray(0, 4)).toString('ascii')).toBe('RIFF');
    expect(Buffer.from(result.bytes).readUInt32LE(24)).toBe(44100);
    expect(Math.abs((result.bytes.length - 44) / 2 / 44100 - Math.max(0.5, body.data.length / 15))).toBeLessThan(0.001);
    const probe = await probeAudio(result.bytes, 'wav');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: 44100, channels: 1 });
  });

  it('pages GET /api/v2/voices with page and page_size', async () => {
    expect((await voices('page=1', {})).status).toBe(401);
    const first = (await (await voices('page=1&page_size=10')).json()) as { success: boolean; num_pages: number; items: unknown[] };
    expect(first).toMatchObject({ success: true, page: 1, num_pages: 1, page_size: 10 });
    expect(first.items).toHaveLength(6);
    expect((await voices('page=1&page_size=5')).status).toBe(400);
    expect((await voices('page=0')).status).toBe(400);
  });
});
