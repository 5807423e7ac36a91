// The LMNT double's auth, validation, error bodies and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { text: 'Hello from the fake.', voice: 'leah', model: 'blizzard', format: 'mp3', sample_rate: 24000 };

beforeAll(async () => {
  fake = await startFakeProvider('lmnt');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/v1/ai/speech/bytes`, headers, payload);
const auth = () => ({ 'x-api-key': fake.apiKey });

describe('lmnt double', () => {
  it('refuses a wrong key with {error: {type, message}}', async () => {
    const result = await speak({ 'x-api-key': 'wrong' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as { error: { type: string; message: string } };
    expect(error.error.type).toBe('authentication_error');
    expect(error.error.message).toContain(fake.leakMarker);
  });

  it('refuses a Bearer token: LMNT reads X-API-Key only', async () => {
    expect((await speak({ authorization: `Bearer ${fake.apiKey}` })).status).toBe(401);
  });

  it('answers 404 not_found_error for an unknown voice and 400 for bad fields', async () => {
    const missing = await speak(auth(), { ...body, voice: 'nobody' });
    expect(missing.status).toBe(404);
    expect((JSON.parse(missing.text) as { error: { type: string } }).error.type).toBe('not_found_error');
    expect((await speak(auth(), { ...body, model: 'aurora-9' })).status).toBe(400);
    expect((await speak(auth(), { ...body, sample_rate: 22050 })).status).toBe(400);
    expect((await speak(auth(), { ...body, text: 'x'.repeat(5001) })).status).toBe(400);
  });

  it('answers an unknown route without the LMNT envelope', async () => {
    const result = await post(`${fake.baseUrl}/v1/ai/speech/nope`, auth(), body);
    expect(result.status).toBe(404);
    expect(JSON.parse(result.text)).toEqual({ detail: 'Not Found' });
  });

  it('streams 24 kHz mono MP3', async () => {
    const result = await speak(auth());
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it.each([8000, 16000, 24000])('streams pcm_s16le at %i Hz', async (rate) => {
    const result = await speak(auth(), { ...body, format: 'pcm_s16le', sample_rate: rate });
    expect(result.status).toBe(200);
    const seconds = Math.max(0.5, body.text.length / 15);
    expect(Math.abs(result.bytes.length / 2 / rate - seconds)).toBeLessThan(0.001);
  });
});
