// Fidelity: the official @speechify/api SDK (pinned) pointed at the double must accept its answers (stream audio,
// the voice list, typed errors), and the router must send what the SDK sends where both can say it.

import { Speechify, SpeechifyClient, SpeechifyError } from '@speechify/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { buildSpeechifySpeechRequest } from './speechify-speech-model.js';

let fake: FakeProviderServer;
let client: SpeechifyClient;

beforeAll(async () => {
  fake = await startFakeProvider('speechify');
  client = new SpeechifyClient({ token: fake.apiKey, baseUrl: fake.baseUrl });
});
afterAll(() => fake.close());

async function readAll(body: unknown): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

describe('@speechify/api against the double', () => {
  it('tts.audio.stream hands back the mp3 body, sent at the same path with the same auth and fields as the router', async () => {
    const text = 'Hello from the SDK.';
    const body = await client.tts.audio.stream({ input: text, voiceId: 'george', model: 'simba-english', accept: 'audio/mpeg' }, { maxRetries: 0 });
    const bytes = await readAll(body);
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });

    const recorded = fake.requests.at(-1)!;
    const ours = buildSpeechifySpeechRequest({ modelId: 'simba-english', voice: 'george', text, format: 'mp3', providerOptions: {} }, { apiKey: fake.apiKey, settings: {} });
    expect(recorded.path).toBe(`/speechify${ours.path}`);
    expect(recorded.headers.authorization).toBe(ours.headers.authorization);
    expect(recorded.headers.accept).toBe(ours.headers.accept);
    // SDK 1.0.1 predates output_format; every other field is the same.
    const { output_format, ...rest } = JSON.parse(ours.body) as Record<string, unknown>;
    expect(output_format).toBe('mp3_24000_128');
    expect(recorded.body).toEqual(rest);
  });

  it('tts.audio.stream with Accept audio/pcm hands back 24 kHz samples', async () => {
    const text = 'Raw samples please.';
    const bytes = await readAll(await client.tts.audio.stream({ input: text, voiceId: 'harper_32', model: 'simba-english', accept: 'audio/pcm' }, { maxRetries: 0 }));
    expect(Math.abs(bytes.length / 2 / 24000 - Math.max(0.5, text.length / 15))).toBeLessThan(0.001);
  });

  it('tts.voices.list parses the double voice list', async () => {
    const voices = await client.tts.voices.list({ maxRetries: 0 });
    expect(voices.map((voice) => voice.id)).toContain('george');
    const imogen = voices.find((voice) => voice.id === 'imogen_32')!;
    expect(imogen).toMatchObject({ displayName: 'Imogen', locale: 'en-GB', gender: 'female', type: 'shared' });
    expect(imogen.models.map((model) => model.name)).toEqual(['simba-3.0', 'simba-3.2']);
  });

  it('turns the double error answers into the SDK typed errors with their status', async () => {
    const wrongKey = new SpeechifyClient({ token: 'wrong', baseUrl: fake.baseUrl });
    const unauthorized = await wrongKey.tts.audio.stream({ input: 'Hi', voiceId: 'george', accept: 'audio/mpeg' }, { maxRetries: 0 }).then(() => undefined, (error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(Speechify.tts.UnauthorizedError);
    // A streaming call hands the error body back as a stream; the JSON voice list shows the parsed {error} body.
    const listRefused = await wrongKey.tts.voices.list({ maxRetries: 0 }).then(() => undefined, (error: unknown) => error);
    expect(listRefused).toBeInstanceOf(Speechify.tts.UnauthorizedError);
    expect((listRefused as SpeechifyError).body).toEqual({ error: expect.stringContaining(fake.leakMarker) });
    const missing = await client.tts.audio.stream({ input: 'Hi', voiceId: 'nobody', accept: 'audio/mpeg' }, { maxRetries: 0 }).then(() => undefined, (error: unknown) => error);
    expect(missing).toBeInstanceOf(SpeechifyError);
    expect((missing as SpeechifyError).statusCode).toBe(404);
    fake.setBehavior({ status: 402, times: 1 });
    const broke = await client.tts.audio.stream({ input: 'Hi', voiceId: 'george', accept: 'audio/mpeg' }, { maxRetries: 0 }).then(() => undefined, (error: unknown) => error);
    expect(broke).toBeInstanceOf(Speechify.tts.PaymentRequiredError);
  });
});
