// The Cartesia fake's auth, versioned errors, validation and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const mp3 = { container: 'mp3', sample_rate: 24000, bit_rate: 128000 };
const pcm = { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 };
const body = {
  model_id: 'sonic-3',
  transcript: 'Hello from the fake.',
  voice: { id: '694f9389-aac1-45b6-b726-9d9369183238' },
  output_format: mp3,
};

beforeAll(async () => {
  fake = await startFakeProvider('cartesia');
});
afterAll(() => fake.close());

const bytes = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/tts/bytes`, headers, payload);
const headers = () => ({ authorization: `Bearer ${fake.apiKey}`, 'cartesia-version': '2026-08-14' });

describe('cartesia fake: authentication and versions', () => {
  it('rejects a wrong key with the JSON error object', async () => {
    const result = await bytes({ authorization: 'Bearer wrong', 'cartesia-version': '2026-08-14' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['error_code', 'message', 'request_id', 'title']);
    expect(error.error_code).toBeNull();
    expect(error.message).toContain(fake.leakMarker);
  });

  it('answers in plain text for versions before 2026-03-01', async () => {
    const result = await bytes({ authorization: 'Bearer wrong', 'cartesia-version': '2024-11-13' });
    expect(result.status).toBe(401);
    expect(result.headers.get('content-type')).toContain('text/plain');
    expect(result.text).toMatch(/^Unauthorized: /);
  });

  it('accepts the legacy X-API-Key header', async () => {
    expect((await bytes({ 'x-api-key': fake.apiKey, 'cartesia-version': '2026-08-14' })).status).toBe(200);
  });

  it('requires a Cartesia-Version header', async () => {
    expect((await bytes({ authorization: `Bearer ${fake.apiKey}` })).status).toBe(400);
  });
});

describe('cartesia fake: validation', () => {
  it('reports sunset models with error_code model_sunsetted', async () => {
    const result = await bytes(headers(), { ...body, model_id: 'sonic-english' });
    expect(result.status).toBe(400);
    expect((JSON.parse(result.text) as { error_code: string }).error_code).toBe('model_sunsetted');
  });

  it('rejects generation_config.speed outside 0.6 to 1.5', async () => {
    expect((await bytes(headers(), { ...body, generation_config: { speed: 2 } })).status).toBe(400);
  });

  it('rejects mp3 without bit_rate', async () => {
    expect((await bytes(headers(), { ...body, output_format: { container: 'mp3', sample_rate: 24000 } })).status).toBe(400);
  });

  it('answers 404 for unknown voices', async () => {
    expect((await bytes(headers(), { ...body, voice: { id: 'no-such-voice' } })).status).toBe(404);
  });
});

describe('cartesia fake: audio', () => {
  it('streams decodable MP3', async () => {
    const result = await bytes(headers());
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('streams raw pcm_s16le, accepting the voice as a plain string too', async () => {
    const result = await bytes(headers(), { ...body, voice: body.voice.id, output_format: pcm });
    expect(result.status).toBe(200);
    expect(result.bytes.length % 2).toBe(0);
  });

  it.each([8000, 16000, 22050, 44100, 48000])('serves pcm_s16le at the sample rate asked for (%i Hz), raw or as a streaming WAV', async (rate) => {
    const raw = await bytes(headers(), { ...body, output_format: { ...pcm, sample_rate: rate } });
    expect(raw.status).toBe(200);
    const seconds = Math.max(0.5, body.transcript.length / 15);
    expect(Math.abs(raw.bytes.length / 2 / rate - seconds)).toBeLessThan(0.001);
    const wav = await bytes(headers(), { ...body, output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: rate } });
    expect(wav.status).toBe(200);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const header = Buffer.from(wav.bytes.subarray(0, 44));
    expect(header.toString('latin1', 0, 4) + header.toString('latin1', 8, 16)).toBe('RIFFWAVEfmt ');
    expect(header.readUInt32LE(24)).toBe(rate);
    // Streamed: the length is unknown when the header goes out.
    expect(header.readUInt32LE(40)).toBe(0xffffffff);
    expect(Buffer.from(wav.bytes.subarray(44)).equals(Buffer.from(raw.bytes))).toBe(true);
    const probe = await probeAudio(wav.bytes, 'wav');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: rate, channels: 1 });
  });

  it('pauses mid-body until released ({ pauseAfterBytes, until })', async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    fake.setBehavior({ pauseAfterBytes: 1000, until });
    try {
      const pending = bytes(headers(), { ...body, output_format: pcm });
      const record = await waitFor(() => fake.requests.find((request) => request.audioBytesSent === 1000 && request.outcome === 'pending'));
      expect(record.audioBytesSent).toBe(1000);
      release();
      const result = await pending;
      expect(result.bytes.length).toBeGreaterThan(1000);
      expect(await fake.waitForOutcome(record)).toBe('completed');
    } finally {
      release();
      fake.setBehavior('normal');
    }
  });
});

async function waitFor<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
