// The Groq double's auth, validation (models, per-model voices, wav only, sample rates), error bodies and audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { model: 'canopylabs/orpheus-v1-english', input: 'Hello from the fake.', voice: 'troy', response_format: 'wav', sample_rate: 24000 };

beforeAll(async () => {
  fake = await startFakeProvider('groq');
});
afterAll(() => fake.close());

const speak = (payload: unknown = body, headers: Record<string, string> = { authorization: `Bearer ${fake.apiKey}` }) =>
  post(`${fake.baseUrl}/openai/v1/audio/speech`, headers, payload);
const errorOf = (text: string) => (JSON.parse(text) as { error: { type: string; code?: string; message: string } }).error;

describe('groq double', () => {
  it('answers a streaming WAV at the asked rate, 48 kHz by default', async () => {
    const ok = await speak();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('audio/wav');
    expect(ok.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(ok.bytes.readUInt32LE(24)).toBe(24000);
    const fallback = await speak({ ...body, sample_rate: undefined });
    expect(fallback.bytes.readUInt32LE(24)).toBe(48000);
  });

  it('refuses a wrong key with invalid_api_key', async () => {
    const refused = await speak(body, { authorization: 'Bearer gsk_wrong' });
    expect(refused.status).toBe(401);
    expect(errorOf(refused.text)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(errorOf(refused.text).message).toContain(fake.leakMarker);
  });

  it.each([
    [{ ...body, response_format: 'mp3' }, 400, undefined],
    [{ ...body, voice: 'fahad' }, 400, undefined],
    [{ ...body, sample_rate: 12345 }, 400, undefined],
    [{ ...body, speed: 9 }, 400, undefined],
    [{ ...body, instructions: 'x' }, 400, undefined],
    [{ ...body, input: 'x'.repeat(201) }, 400, undefined],
    [{ ...body, model: 'playai-tts' }, 404, 'model_not_found'],
  ])('refuses %j', async (payload, status, code) => {
    const refused = await speak(payload);
    expect(refused.status).toBe(status);
    expect(errorOf(refused.text)).toMatchObject({ type: 'invalid_request_error', ...(code ? { code } : {}) });
  });
});
