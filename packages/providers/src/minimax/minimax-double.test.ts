// The MiniMax double's auth, HTTP 200 error envelopes, SSE hex framing and non-stream JSON.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = {
  model: 'speech-2.8-hd',
  text: 'Hello from the fake.',
  stream: true,
  stream_options: { exclude_aggregated_audio: true },
  voice_setting: { voice_id: 'English_CalmWoman' },
  audio_setting: { sample_rate: 24000, format: 'pcm', channel: 1 },
};
const seconds = Math.max(0.5, body.text.length / 15);

beforeAll(async () => {
  fake = await startFakeProvider('minimax', { chunkBytes: 1000 });
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/v1/t2a_v2`, headers, payload);
const auth = () => ({ authorization: `Bearer ${fake.apiKey}` });
const events = (text: string) => text.split('\n\n').filter(Boolean).map((event) => JSON.parse(event.replace(/^data: /, '')) as { data: { audio: string; status: number }; base_resp: { status_code: number } });

describe('minimax double', () => {
  it('answers a wrong key from the gateway with HTTP 401, error.type and base_resp 1004', async () => {
    const result = await speak({ authorization: 'Bearer wrong' });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.text)).toMatchObject({ error: { type: 'authentication_error' }, base_resp: { status_code: 1004 } });
    expect(result.text).toContain(fake.leakMarker);
  });

  it('answers bad voices, models and parameters with HTTP 200 and a non-zero base_resp', async () => {
    for (const [payload, code] of [
      [{ ...body, voice_setting: { voice_id: 'Nobody' } }, 20132],
      [{ ...body, model: 'speech-9' }, 2013],
      [{ ...body, voice_setting: { voice_id: 'English_CalmWoman', speed: 3 } }, 2013],
      [{ ...body, audio_setting: { sample_rate: 12345, format: 'pcm' } }, 2013],
    ] as const) {
      const result = await speak(auth(), payload);
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(result.text).base_resp.status_code).toBe(code);
    }
  });

  it('streams SSE events of hex audio with status 1, then a final status 2 event without repeated audio', async () => {
    const result = await speak(auth());
    expect(result.headers.get('content-type')).toBe('text/event-stream');
    const all = events(result.text);
    const final = all.at(-1)!;
    expect(final.data).toEqual({ audio: '', status: 2 });
    const audio = Buffer.concat(all.slice(0, -1).map((event) => Buffer.from(event.data.audio, 'hex')));
    expect(all.slice(0, -1).every((event) => event.data.status === 1 && event.base_resp.status_code === 0)).toBe(true);
    expect(Math.abs(audio.length / 2 / 24000 - seconds)).toBeLessThan(0.001);
    const aggregated = events((await speak(auth(), { ...body, stream_options: undefined })).text).at(-1)!;
    expect(Buffer.from(aggregated.data.audio, 'hex').length).toBe(audio.length);
  });

  it('answers a non-stream request with one JSON holding hex audio', async () => {
    const result = await speak(auth(), { ...body, stream: false });
    const parsed = JSON.parse(result.text) as { data: { audio: string }; base_resp: { status_code: number } };
    expect(parsed.base_resp.status_code).toBe(0);
    expect(Math.abs(Buffer.from(parsed.data.audio, 'hex').length / 2 / 24000 - seconds)).toBeLessThan(0.001);
  });
});
