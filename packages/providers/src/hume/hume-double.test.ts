// The Hume double's auth, validation, error bodies and 48 kHz audio.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post, probeAudio } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { utterances: [{ text: 'Hello from the fake.', voice: { name: 'Ava Song', provider: 'HUME_AI' } }], format: { type: 'pcm' }, version: '1' };

beforeAll(async () => {
  fake = await startFakeProvider('hume');
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/v0/tts/stream/file`, headers, payload);
const auth = () => ({ 'x-hume-api-key': fake.apiKey });

describe('hume double', () => {
  it('refuses a wrong key with {code, error, message}', async () => {
    const result = await speak({ 'x-hume-api-key': 'wrong' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as Record<string, string>;
    expect(Object.keys(error).sort()).toEqual(['code', 'error', 'message']);
    expect(error.message).toContain(fake.leakMarker);
  });

  it('answers 422 {detail: [...]} for schema errors and 404 for an unknown voice', async () => {
    const invalid = await speak(auth(), { ...body, utterances: [] });
    expect(invalid.status).toBe(422);
    expect(Array.isArray((JSON.parse(invalid.text) as { detail: unknown }).detail)).toBe(true);
    expect((await speak(auth(), { ...body, utterances: [{ text: 'x', speed: 3 }] })).status).toBe(422);
    expect((await speak(auth(), { ...body, utterances: [{ text: 'x', voice: { name: 'Nobody', provider: 'HUME_AI' } }] })).status).toBe(404);
    expect((await speak(auth(), { ...body, version: '2', utterances: [{ text: 'x' }] })).status).toBe(400);
  });

  it('streams pcm s16le mono at 48 kHz', async () => {
    const result = await speak(auth());
    expect(result.status).toBe(200);
    const seconds = Math.max(0.5, 'Hello from the fake.'.length / 15);
    expect(Math.abs(result.bytes.length / 2 / 48000 - seconds)).toBeLessThan(0.001);
  });

  it('streams a 48 kHz WAV when asked for wav', async () => {
    const result = await speak(auth(), { ...body, format: { type: 'wav' } });
    expect(result.status).toBe(200);
    const probe = await probeAudio(result.bytes, 'wav');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: 48000, channels: 1 });
  });
});
