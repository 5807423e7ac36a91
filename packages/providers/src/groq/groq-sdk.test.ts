// Fidelity: the official groq-sdk (pinned) pointed at the double with GROQ_BASE_URL's convention (bare origin)
// accepts its answers, and sends what the router sends.

import Groq from 'groq-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { buildGroqSpeechRequest } from './groq-speech-model.js';

let fake: FakeProviderServer;
let client: Groq;

beforeAll(async () => {
  fake = await startFakeProvider('groq');
  client = new Groq({ apiKey: fake.apiKey, baseURL: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('groq-sdk against the double', () => {
  it('audio.speech.create gets a WAV whose header says s16le mono at the asked rate', async () => {
    const response = await client.audio.speech.create({
      model: 'canopylabs/orpheus-v1-english', voice: 'hannah', input: 'Hello from the SDK.', response_format: 'wav', sample_rate: 24000,
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
    expect(bytes.readUInt16LE(22)).toBe(1);
    expect(bytes.readUInt32LE(24)).toBe(24000);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(bytes.length).toBeGreaterThan(44);
  });

  it('sends the same path, auth and body as the router', async () => {
    await (await client.audio.speech.create({
      model: 'canopylabs/orpheus-arabic-saudi', voice: 'noura', input: 'مرحبا', response_format: 'wav', sample_rate: 24000, speed: 1.2,
    })).arrayBuffer();
    const recorded = fake.requests.at(-1)!;
    const ours = buildGroqSpeechRequest(
      { modelId: 'canopylabs/orpheus-arabic-saudi', voice: 'noura', text: 'مرحبا', format: 'pcm', speed: 1.2, providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path).toBe(ours.path);
    expect(recorded.headers.authorization).toBe(ours.headers.authorization);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('turns the double error bodies into the SDK typed errors', async () => {
    const badVoice = await client.audio.speech.create({ model: 'canopylabs/orpheus-v1-english', voice: 'fahad', input: 'Hi' }).catch((error: unknown) => error);
    expect(badVoice).toBeInstanceOf(Groq.BadRequestError);
    const missing = await client.audio.speech.create({ model: 'playai-tts', voice: 'Fritz-PlayAI', input: 'Hi' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Groq.NotFoundError);
    expect((missing as InstanceType<typeof Groq.NotFoundError>).error).toMatchObject({ error: { code: 'model_not_found' } });
    const wrongKey = new Groq({ apiKey: 'gsk_wrong', baseURL: fake.baseUrl, maxRetries: 0 });
    await expect(wrongKey.audio.speech.create({ model: 'canopylabs/orpheus-v1-english', voice: 'autumn', input: 'Hi' })).rejects.toBeInstanceOf(
      Groq.AuthenticationError,
    );
  });
});
