// The Neuphonic double's auth, validation, {detail} errors, SSE framing and voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const voice = 'eeb488b8-d532-4235-aa57-f070cfc44750';
const body = { text: 'Hello from the fake.', lang_code: 'en', voice_id: voice, sampling_rate: 24000, encoding: 'pcm_linear' };

beforeAll(async () => {
  fake = await startFakeProvider('neuphonic');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body, lang = 'en') => post(`${fake.baseUrl}/sse/speak/${lang}`, headers, payload);
const auth = () => ({ 'x-api-key': fake.apiKey });

describe('neuphonic double', () => {
  it('refuses a wrong key with {detail}', async () => {
    const result = await speak({ 'x-api-key': 'wrong' });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.text)).toEqual({ detail: expect.stringContaining(fake.leakMarker) });
  });

  it('answers 422 {detail: [...]} for bad values and 404 for an unknown voice', async () => {
    const invalid = await speak(auth(), body, 'xx');
    expect(invalid.status).toBe(422);
    expect(Array.isArray((JSON.parse(invalid.text) as { detail: unknown }).detail)).toBe(true);
    expect((await speak(auth(), { ...body, speed: 3 })).status).toBe(422);
    expect((await speak(auth(), { ...body, sampling_rate: 44100 })).status).toBe(422);
    expect((await speak(auth(), { ...body, voice_id: '00000000-0000-0000-0000-000000000000' })).status).toBe(404);
  });

  it('streams whole SSE events of base64 pcm at the asked rate', async () => {
    const result = await speak(auth(), { ...body, sampling_rate: 16000 });
    expect(result.status).toBe(200);
    expect(result.text.endsWith('\n\n')).toBe(true);
    const events = result.text.trim().split('\n\n');
    let samples = 0;
    for (const event of events) {
      expect(event.startsWith('data: ')).toBe(true);
      const message = JSON.parse(event.slice(6)) as { status_code: number; data: { audio: string; sampling_rate: number } };
      expect(message.status_code).toBe(200);
      expect(message.data.sampling_rate).toBe(16000);
      samples += Buffer.from(message.data.audio, 'base64').length / 2;
    }
    expect(Math.abs(samples / 16000 - Math.max(0.5, body.text.length / 15))).toBeLessThan(0.1);
  });

  it('takes the key as ?api_key= too (the JS SDK sends both) and serves GET /voices', async () => {
    expect((await fetch(`${fake.baseUrl}/voices`)).status).toBe(401);
    const listed = (await (await fetch(`${fake.baseUrl}/voices?api_key=${fake.apiKey}`)).json()) as { data: { voices: Array<{ voice_id: string }> } };
    expect(listed.data.voices.map((entry) => entry.voice_id)).toContain(voice);
  });
});
