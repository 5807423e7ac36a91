// The Deepgram double's auth, query validation, error bodies and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const text = 'Hello from the fake.';

beforeAll(async () => {
  fake = await startFakeProvider('deepgram');
});
afterAll(() => fake.close());

const speak = (query: string, headers: Record<string, string> = { authorization: `Token ${fake.apiKey}` }, body: unknown = { text }) =>
  post(`${fake.baseUrl}/v1/speak?${query}`, headers, body);
const errorOf = (result: { text: string }) => JSON.parse(result.text) as { err_code: string; err_msg: string; request_id: string };

describe('deepgram double', () => {
  it('refuses a wrong key and a Bearer token with 401 INVALID_AUTH', async () => {
    for (const authorization of ['Token wrong', `Bearer ${fake.apiKey}`]) {
      const result = await speak('model=aura-2-thalia-en&encoding=mp3', { authorization });
      expect(result.status).toBe(401);
      expect(errorOf(result).err_code).toBe('INVALID_AUTH');
      expect(errorOf(result).err_msg).toContain(fake.leakMarker);
    }
  });

  it('refuses an unknown model, bad formats, empty and over-long text', async () => {
    expect((await speak('model=aura-2-nobody-en&encoding=mp3')).status).toBe(400);
    expect((await speak('model=aura-2-thalia-en&encoding=wav')).status).toBe(400);
    expect((await speak('model=aura-2-thalia-en&encoding=mp3&sample_rate=24000')).status).toBe(400);
    expect((await speak('model=aura-2-thalia-en&encoding=linear16&sample_rate=22050&container=none')).status).toBe(400);
    expect((await speak('model=aura-2-thalia-en&encoding=mp3&speed=3')).status).toBe(400);
    expect((await speak('model=aura-2-thalia-en&encoding=mp3', undefined, { text: ' ' })).status).toBe(400);
    const long = await speak('model=aura-2-thalia-en&encoding=mp3', undefined, { text: 'x'.repeat(2001) });
    expect(long.status).toBe(413);
    expect(long.headers.get('dg-request-id')).toBe(errorOf(long).request_id);
  });

  it('streams 22.05 kHz mono MP3 (the default encoding and model when omitted)', async () => {
    for (const query of ['model=aura-2-thalia-en&encoding=mp3&bit_rate=48000', '']) {
      const result = await speak(query);
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toBe('audio/mpeg');
      expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
      const probe = await probeAudio(result.bytes);
      if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 22050, channels: 1 });
    }
  });

  it('streams headerless linear16 at 24 kHz', async () => {
    const result = await speak('model=aura-asteria-en&encoding=linear16&sample_rate=24000&container=none');
    expect(result.status).toBe(200);
    const seconds = Math.max(0.5, text.length / 15);
    expect(Math.abs(result.bytes.length / 2 / 24000 - seconds)).toBeLessThan(0.001);
    expect(result.bytes.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
  });
});
