// The Speechify double's auth, validation, error bodies, audio by output_format / Accept, and voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { input: 'Hello from the fake.', voice_id: 'george', model: 'simba-english', output_format: 'mp3_24000_128' };

beforeAll(async () => {
  fake = await startFakeProvider('speechify');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/v1/audio/stream`, headers, payload);
const auth = () => ({ authorization: `Bearer ${fake.apiKey}` });

describe('speechify double', () => {
  it('refuses a wrong or missing key with {error}', async () => {
    for (const headers of [{ authorization: 'Bearer wrong' }, {}] as Record<string, string>[]) {
      const result = await speak(headers);
      expect(result.status).toBe(401);
      const error = JSON.parse(result.text) as Record<string, string>;
      expect(Object.keys(error)).toEqual(['error']);
      expect(error.error).toContain(fake.leakMarker);
    }
  });

  it('answers 400 for bad bodies and 404 for an unknown voice', async () => {
    expect((await speak(auth(), { ...body, input: '' })).status).toBe(400);
    expect((await speak(auth(), { ...body, model: 'simba-9' })).status).toBe(400);
    expect((await speak(auth(), { ...body, output_format: 'mp3_44100_128' })).status).toBe(400);
    expect((await speak(auth(), { ...body, options: { text_normalization: 'yes' } })).status).toBe(400);
    expect((await speak(auth(), { ...body, voice_id: 'nobody' })).status).toBe(404);
  });

  it('streams 24 kHz mp3 for mp3_24000_128 and for a bare Accept audio/mpeg', async () => {
    for (const [headers, payload] of [[auth(), body], [{ ...auth(), accept: 'audio/mpeg' }, { input: 'Hi there.', voice_id: 'george' }]] as const) {
      const result = await speak(headers, payload);
      expect(result.status).toBe(200);
      expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
      const probe = await probeAudio(result.bytes);
      if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    }
  });

  it('streams pcm labelled audio/L16 for pcm_24000', async () => {
    const response = await fetch(`${fake.baseUrl}/v1/audio/stream`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', accept: 'audio/pcm' },
      body: JSON.stringify({ ...body, output_format: 'pcm_24000' }),
    });
    expect(response.headers.get('content-type')).toBe('audio/L16;rate=24000;channels=1');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Math.abs(bytes.length / 2 / 24000 - Math.max(0.5, body.input.length / 15))).toBeLessThan(0.001);
  });

  it('serves GET /v1/voices as one array behind the same auth, and leaves other paths unowned', async () => {
    expect((await fetch(`${fake.baseUrl}/v1/voices`)).status).toBe(401);
    const voices = (await (await fetch(`${fake.baseUrl}/v1/voices`, { headers: auth() })).json()) as Array<{ id: string; type: string }>;
    expect(voices.map((voice) => voice.id)).toContain('george');
    expect(voices.some((voice) => voice.type === 'personal')).toBe(true);
    expect((await speak(auth()).then(() => fetch(`${fake.baseUrl}/v1/audio/speech`, { method: 'POST', headers: auth() }))).status).toBe(404);
  });
});
