// The Rime double's auth, Accept-driven formats, validation and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { speaker: 'luna', text: 'Hello from the fake.', modelId: 'arcana', samplingRate: 24000 };

beforeAll(async () => {
  fake = await startFakeProvider('rime');
});
afterAll(() => fake.close());

const speak = (accept: string, payload: unknown = body, key = fake.apiKey) =>
  post(`${fake.baseUrl}/v1/rime-tts`, { authorization: `Bearer ${key}`, accept }, payload);

describe('rime double', () => {
  it('refuses a wrong key with {message}', async () => {
    const result = await speak('audio/mp3', body, 'wrong');
    expect(result.status).toBe(401);
    expect((JSON.parse(result.text) as { message: string }).message).toContain(fake.leakMarker);
  });

  it('refuses unknown speakers, models, over-long mist text and an unknown Accept', async () => {
    expect((await speak('audio/mp3', { ...body, speaker: 'nobody' })).status).toBe(400);
    expect((await speak('audio/mp3', { ...body, modelId: 'mistv9' })).status).toBe(400);
    expect((await speak('audio/mp3', { ...body, modelId: 'mistv3', speaker: 'cove', text: 'x'.repeat(501) })).status).toBe(400);
    expect((await speak('text/html')).status).toBe(400);
  });

  it('streams 24 kHz mono mp3 for audio/mp3 and audio/mpeg', async () => {
    for (const accept of ['audio/mp3', 'audio/mpeg']) {
      const result = await speak(accept);
      expect(result.status).toBe(200);
      expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
      const probe = await probeAudio(result.bytes);
      if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    }
  });

  it.each([8000, 22050, 24000, 44100])('streams headerless pcm and WAV at samplingRate %i', async (rate) => {
    const pcm = await speak('audio/pcm', { ...body, samplingRate: rate });
    expect(pcm.status).toBe(200);
    expect(Math.abs(pcm.bytes.length / 2 / rate - Math.max(0.5, body.text.length / 15))).toBeLessThan(0.001);
    const wav = await speak('audio/wav', { ...body, samplingRate: rate });
    const probe = await probeAudio(wav.bytes, 'wav');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: rate, channels: 1 });
  });
});
