// The Inworld double's auth, validation, error bodies, NDJSON framing and voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { post } from '../__fixtures__/http.js';

let fake: FakeProviderServer;
const body = { text: 'Hello from the fake.', voiceId: 'Ashley', modelId: 'inworld-tts-1.5-mini', audioConfig: { audioEncoding: 'PCM', sampleRateHertz: 24000 } };

beforeAll(async () => {
  fake = await startFakeProvider('inworld', { chunkBytes: 1000 });
});
afterAll(() => fake.close());

const speak = (headers: Record<string, string>, payload: unknown = body) => post(`${fake.baseUrl}/tts/v1/voice:stream`, headers, payload);
const auth = () => ({ authorization: `Basic ${fake.apiKey}` });

describe('inworld double', () => {
  it('refuses a wrong key or a Bearer header with a gRPC UNAUTHENTICATED body', async () => {
    const result = await speak({ authorization: 'Basic d3Jvbmc=' });
    expect(result.status).toBe(401);
    const error = JSON.parse(result.text) as { code: number; message: string; details: unknown[] };
    expect(error).toMatchObject({ code: 16, details: [] });
    expect(error.message).toContain(fake.leakMarker);
    expect((await speak({ authorization: `Bearer ${fake.apiKey}` })).status).toBe(401);
  });

  it('answers NOT_FOUND for an unknown voice and INVALID_ARGUMENT for bad fields', async () => {
    const missing = await speak(auth(), { ...body, voiceId: 'Nobody' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ code: 5 });
    for (const bad of [{ modelId: 'inworld-tts-9' }, { text: 'x'.repeat(2001) }, { audioConfig: { speakingRate: 2 } }, { temperature: 3 }]) {
      const refused = await speak(auth(), { ...body, ...bad });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 3 });
    }
  });

  it('streams one NDJSON line per chunk with base64 audio, then a usage line', async () => {
    const result = await speak(auth());
    expect(result.status).toBe(200);
    const lines = result.text.trim().split('\n').map((line) => JSON.parse(line) as { result: { audioContent?: string; usage?: unknown } });
    expect(lines.length).toBeGreaterThan(2);
    const audio = Buffer.concat(lines.filter((line) => line.result.audioContent).map((line) => Buffer.from(line.result.audioContent!, 'base64')));
    expect(Buffer.from(lines[0]!.result.audioContent!, 'base64').length).toBe(1000);
    expect(Math.abs(audio.length / 2 / 24000 - Math.max(0.5, body.text.length / 15))).toBeLessThan(0.001);
    expect(lines.at(-1)!.result).toEqual({ usage: { processedCharactersCount: body.text.length, modelId: body.modelId } });
  });

  it('serves GET /voices/v1/voices filtered by language', async () => {
    const response = await fetch(`${fake.baseUrl}/voices/v1/voices?languages=ES_ES`, { headers: auth() });
    expect(((await response.json()) as { voices: Array<{ voiceId: string }> }).voices.map((voice) => voice.voiceId)).toEqual(['Diego']);
    expect((await fetch(`${fake.baseUrl}/voices/v1/voices`)).status).toBe(401);
  });
});
