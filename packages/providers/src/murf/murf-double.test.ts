// The Murf double's auth, validation, error bodies, audio and voice listing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { text: 'Hello from the fake.', voiceId: 'en-US-natalie', model: 'FALCON', format: 'MP3', sampleRate: 24000, channelType: 'MONO' };

beforeAll(async () => {
  fake = await startFakeProvider('murf');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/v1/speech/stream`, headers, payload);
const auth = () => ({ 'api-key': fake.apiKey });

describe('murf double', () => {
  it('refuses a wrong or missing key with {errorMessage, errorCode}', async () => {
    const result = await speak({ 'api-key': 'wrong' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as { errorMessage: string; errorCode: number };
    expect(error.errorCode).toBe(401);
    expect(error.errorMessage).toContain(fake.leakMarker);
    expect((await speak({ authorization: `Bearer ${fake.apiKey}` })).status).toBe(401);
  });

  it('answers 400 for unknown voices, models and out-of-range fields; accepts the actor name', async () => {
    expect((await speak(auth(), { ...body, voiceId: 'en-US-nobody' })).status).toBe(400);
    expect((await speak(auth(), { ...body, model: 'GEN9' })).status).toBe(400);
    expect((await speak(auth(), { ...body, rate: 80 })).status).toBe(400);
    expect((await speak(auth(), { ...body, sampleRate: 22050 })).status).toBe(400);
    expect((await speak(auth(), { ...body, voiceId: 'en-US-river' })).status).toBe(400);
    expect((await speak(auth(), { ...body, voiceId: 'en-US-river', model: 'GEN2', format: 'PCM' })).status).toBe(200);
    expect((await speak(auth(), { ...body, voiceId: 'natalie' })).status).toBe(200);
  });

  it('streams 24 kHz mono MP3', async () => {
    const result = await speak(auth());
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('streams headerless PCM at the asked rate', async () => {
    const result = await speak(auth(), { ...body, format: 'PCM', sampleRate: 16000 });
    expect(result.status).toBe(200);
    expect(result.bytes.subarray(0, 4).toString('ascii')).not.toBe('RIFF');
    const seconds = Math.max(0.5, body.text.length / 15);
    expect(Math.abs(result.bytes.length / 2 / 16000 - seconds)).toBeLessThan(0.001);
  });

  it('lists voices per model as one array', async () => {
    const list = async (query: string, headers: Record<string, string>) => {
      const response = await fetch(`${fake.baseUrl}/v1/speech/voices${query}`, { headers });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect((await list('', {})).status).toBe(401);
    const falcon = await list('?model=FALCON', auth());
    expect(falcon.status).toBe(200);
    expect(Array.isArray(falcon.body)).toBe(true);
    expect((await list('?model=GEN2', auth())).body).toHaveLength(5);
    expect((await list('?model=NOPE', auth())).status).toBe(400);
  });
});
