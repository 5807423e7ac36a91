// The Fish Audio double's auth, JSON and msgpack bodies, errors and audio.

import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { text: 'Hello from the fake.', reference_id: '802e3bc2b27e49c2995d23ef70e6ac89', format: 'pcm', sample_rate: 24000 };

beforeAll(async () => {
  fake = await startFakeProvider('fish');
});
afterAll(() => fake.close());

const speak = (payload: unknown = body, key = fake.apiKey) => post(`${fake.baseUrl}/v1/tts`, { authorization: `Bearer ${key}`, model: 's2.1-pro' }, payload);

describe('fish double', () => {
  it('refuses a wrong key with {status, message}', async () => {
    const result = await speak(body, 'wrong');
    expect(result.status).toBe(401);
    expect(JSON.parse(result.text)).toMatchObject({ status: 401, message: expect.stringContaining(fake.leakMarker) });
  });

  it('answers 404 for an unknown voice model and a 422 list for bad fields', async () => {
    expect((await speak({ ...body, reference_id: '0'.repeat(32) })).status).toBe(404);
    const invalid = await speak({ ...body, prosody: { speed: 5 } });
    expect(invalid.status).toBe(422);
    expect(Array.isArray(JSON.parse(invalid.text))).toBe(true);
  });

  it('streams pcm s16le at the asked rate, and WAV', async () => {
    const pcm = await speak();
    expect(pcm.status).toBe(200);
    expect(Math.abs(pcm.bytes.length / 2 / 24000 - Math.max(0.5, body.text.length / 15))).toBeLessThan(0.001);
    const wav = await speak({ ...body, format: 'wav', sample_rate: 44100 });
    const probe = await probeAudio(wav.bytes, 'wav');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: 44100, channels: 1 });
  });

  it('takes msgpack bodies as the SDK sends them', async () => {
    const response = await fetch(`${fake.baseUrl}/v1/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiKey}`, model: 's1', 'content-type': 'application/msgpack' },
      body: encode(body),
    });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength % 2).toBe(0);
  });
});
