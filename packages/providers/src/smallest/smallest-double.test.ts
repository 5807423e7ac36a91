// The Smallest.ai double's auth, validation, error bodies, audio by output_format and voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { text: 'Hello from the fake.', voice_id: 'magnus', model: 'lightning_v3.1', sample_rate: 24000, output_format: 'mp3' };

beforeAll(async () => {
  fake = await startFakeProvider('smallest');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/waves/v1/tts`, headers, payload);
const auth = () => ({ authorization: `Bearer ${fake.apiKey}`, accept: 'audio/wav' });

describe('smallest double', () => {
  it('refuses a wrong key with {message}', async () => {
    const result = await speak({ authorization: 'Bearer wrong' });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.text)).toEqual({ message: expect.stringContaining(fake.leakMarker) });
  });

  it('answers 400 for bad values and unknown voices, but takes a voice of the other pool', async () => {
    expect((await speak(auth(), { ...body, text: ' ' })).status).toBe(400);
    expect((await speak(auth(), { ...body, speed: 3 })).status).toBe(400);
    expect((await speak(auth(), { ...body, model: 'lightning_v9' })).status).toBe(400);
    expect((await speak(auth(), { ...body, output_format: 'flac' })).status).toBe(400);
    expect((await speak(auth(), { ...body, voice_id: 'nobody' })).status).toBe(400);
    expect((await speak(auth(), { ...body, voice_id: 'meher' })).status).toBe(200);
  });

  it('streams 24 kHz mp3, and pcm by default at the asked rate', async () => {
    const mp3 = await speak(auth());
    expect(startsWithMp3FrameSync(mp3.bytes)).toBe(true);
    const probe = await probeAudio(mp3.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    const { output_format: _omitted, ...withoutFormat } = body;
    const pcm = await speak(auth(), withoutFormat);
    expect(Math.abs(pcm.bytes.length / 2 / 24000 - Math.max(0.5, body.text.length / 15))).toBeLessThan(0.001);
  });

  it('serves GET /waves/v1/lightning-v3.1/get_voices behind the same auth', async () => {
    expect((await fetch(`${fake.baseUrl}/waves/v1/lightning-v3.1/get_voices`)).status).toBe(401);
    const listed = (await (await fetch(`${fake.baseUrl}/waves/v1/lightning-v3.1/get_voices`, { headers: auth() })).json()) as { voices: Array<{ voiceId: string }> };
    expect(listed.voices.map((voice) => voice.voiceId)).toContain('magnus');
  });
});
