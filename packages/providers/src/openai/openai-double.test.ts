// The OpenAI fake's auth, validation, audio and request recording.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const validBody = { model: 'tts-1', input: 'Hello from the fake.', voice: 'alloy' };

beforeAll(async () => {
  fake = await startFakeProvider('openai', { apiKey: 'sk-test-openai-0123456789abcdef' });
});
afterAll(() => fake.close());

const speech = (headers: Record<string, string>, body: unknown) => post(`${fake.baseUrl}/audio/speech`, headers, body);
const auth = () => ({ authorization: `Bearer ${fake.apiKey}` });

describe('openai fake: authentication', () => {
  it('rejects a missing key with code null', async () => {
    const result = await speech({}, validBody);
    expect(result.status).toBe(401);
    const error = (JSON.parse(result.text) as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ type: 'invalid_request_error', param: null, code: null });
    expect(error.message).toContain(fake.leakMarker);
  });

  it('rejects a wrong key with invalid_api_key and echoes it masked, like the real API', async () => {
    const result = await speech({ authorization: 'Bearer sk-wrong-key-value-WXYZ' }, validBody);
    expect(result.status).toBe(401);
    const error = (JSON.parse(result.text) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toContain('WXYZ');
    expect(error.message).not.toContain('sk-wrong-key-value-WXYZ');
  });

  it('does not accept the key without the Bearer scheme', async () => {
    expect((await speech({ authorization: fake.apiKey }, validBody)).status).toBe(401);
  });
});

describe('openai fake: base URL convention', () => {
  it('is reached like the official SDK: the base URL ends in /v1 and speech lives at <base>/audio/speech', async () => {
    expect(fake.baseUrl).toBe(`${fake.origin}/v1`);
    expect(fake.baseUrlFor('openai')).toBe(fake.baseUrl);
    expect((await speech(auth(), validBody)).status).toBe(200);
  });

  it('answers 404 for a doubled version path, as the real API does for /v1/v1/audio/speech', async () => {
    const result = await post(`${fake.baseUrl}/v1/audio/speech`, auth(), validBody);
    expect(result.status).toBe(404);
    expect(result.text).toContain('Invalid URL');
  });
});

describe('openai fake: validation', () => {
  it.each([
    [{ input: 'x', voice: 'alloy' }, 400, 'model'],
    [{ model: 'tts-1', voice: 'alloy' }, 400, 'input'],
    [{ model: 'tts-1', input: 'x', voice: 'robot' }, 400, 'voice'],
    [{ model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy' }, 400, 'input'],
    [{ model: 'tts-1', input: 'x', voice: 'alloy', speed: 9 }, 400, 'speed'],
    [{ model: 'tts-1', input: 'x', voice: 'alloy', response_format: 'ogg' }, 400, 'response_format'],
  ])('rejects %j', async (body, status, param) => {
    const result = await speech(auth(), body);
    expect(result.status).toBe(status);
    expect((JSON.parse(result.text) as { error: { param: string } }).error.param).toBe(param);
  });

  it('answers 404 model_not_found for unknown models', async () => {
    const result = await speech(auth(), { ...validBody, model: 'tts-9' });
    expect(result.status).toBe(404);
    expect(result.text).toContain('model_not_found');
  });

  it('counts the 4096 limit in code points, not UTF-16 units', async () => {
    const result = await speech(auth(), { ...validBody, input: '😀'.repeat(4096), response_format: 'pcm' });
    expect(result.status).toBe(200);
  });
});

describe('openai fake: audio', () => {
  it('streams a decodable MP3 as audio/mpeg with chunked transfer', async () => {
    const result = await speech(auth(), validBody);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(result.headers.get('transfer-encoding')).toBe('chunked');
    expect(result.headers.get('content-length')).toBeNull();
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('streams raw 16-bit PCM for response_format pcm', async () => {
    const result = await speech(auth(), { ...validBody, response_format: 'pcm' });
    expect(result.status).toBe(200);
    expect(result.bytes.length % 2).toBe(0);
    expect(result.bytes.length).toBeGreaterThanOrEqual(24000); // at least 0.5 s
  });

  it('records method, raw path, headers and parsed body', async () => {
    const before = fake.requests.length;
    await speech(auth(), { ...validBody, speed: 1.5 });
    const recorded = fake.requests[before]!;
    expect(recorded).toMatchObject({ kind: 'openai', method: 'POST', path: '/v1/audio/speech', status: 200 });
    expect(recorded.body).toEqual({ ...validBody, speed: 1.5 });
    expect(recorded.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });
});
