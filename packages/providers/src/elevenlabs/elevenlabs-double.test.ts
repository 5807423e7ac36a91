// The ElevenLabs fake's auth, routing, validation and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const rachel = '21m00Tcm4TlvDq8ikWAM';
const body = { text: 'Hello from the fake.', model_id: 'eleven_flash_v2_5' };

beforeAll(async () => {
  fake = await startFakeProvider('elevenlabs');
});
afterAll(() => fake.close());

const stream = (voicePath: string, format: string, headers: Record<string, string>, payload: unknown = body) =>
  post(`${fake.baseUrl}/v1/text-to-speech/${voicePath}/stream?output_format=${format}`, headers, payload);
const key = () => ({ 'xi-api-key': fake.apiKey });
const detail = (text: string) => (JSON.parse(text) as { detail: { status: string; message: string } }).detail;

describe('elevenlabs fake: authentication', () => {
  it('rejects a wrong xi-api-key with invalid_api_key', async () => {
    const result = await stream(rachel, 'mp3_24000_48', { 'xi-api-key': 'nope' });
    expect(result.status).toBe(401);
    expect(detail(result.text).status).toBe('invalid_api_key');
    expect(detail(result.text).message).toContain(fake.leakMarker);
  });

  it('rejects the key sent as Bearer', async () => {
    const result = await stream(rachel, 'mp3_24000_48', { authorization: `Bearer ${fake.apiKey}` });
    expect(result.status).toBe(401);
    expect(detail(result.text).status).toBe('invalid_authorization_header');
  });

  it('rejects a missing key', async () => {
    expect((await stream(rachel, 'mp3_24000_48', {})).status).toBe(401);
  });
});

describe('elevenlabs fake: routing and validation', () => {
  it('answers voice_not_found with 404 for unknown voices, keeping the raw path', async () => {
    const before = fake.requests.length;
    const result = await stream('..%2Fadmin', 'mp3_24000_48', key());
    expect(result.status).toBe(404);
    expect(detail(result.text).status).toBe('voice_not_found');
    expect(fake.requests[before]!.path).toBe('/v1/text-to-speech/..%2Fadmin/stream?output_format=mp3_24000_48');
  });

  it("answers FastAPI's 404 for paths outside the route", async () => {
    const result = await post(`${fake.baseUrl}/v1/text-to-speech/a/b/c`, key(), body);
    expect(result.status).toBe(404);
    expect(JSON.parse(result.text)).toEqual({ detail: 'Not Found' });
  });

  it('rejects an unknown output_format with a 422 validation array', async () => {
    const result = await stream(rachel, 'mp3_1_1', key());
    expect(result.status).toBe(422);
    expect(Array.isArray((JSON.parse(result.text) as { detail: unknown }).detail)).toBe(true);
  });

  it('enforces per-model character limits', async () => {
    const result = await stream(rachel, 'mp3_24000_48', key(), { text: 'x'.repeat(5001), model_id: 'eleven_v3' });
    expect(result.status).toBe(400);
    expect(detail(result.text).status).toBe('max_character_limit_exceeded');
  });

  it('rejects voice_settings.speed outside 0.7 to 1.2', async () => {
    const result = await stream(rachel, 'mp3_24000_48', key(), { ...body, voice_settings: { speed: 2 } });
    expect(result.status).toBe(422);
  });
});

describe('elevenlabs fake: audio', () => {
  it('streams decodable MP3 for mp3_24000_48', async () => {
    const result = await stream(rachel, 'mp3_24000_48', key());
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(result.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('streams even-length PCM for pcm_24000, also on the non-stream path', async () => {
    const result = await post(`${fake.baseUrl}/v1/text-to-speech/${rachel}?output_format=pcm_24000`, key(), body);
    expect(result.status).toBe(200);
    expect(result.bytes.length % 2).toBe(0);
  });
});
