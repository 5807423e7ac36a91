// Fidelity: the official @inworld/tts SDK (pinned) pointed at the double must accept its answers (the NDJSON
// stream, the JSON endpoint, the voice list, error bodies), and the router must send what the SDK sends.

import { ApiError, InworldTTS } from '@inworld/tts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { buildInworldSpeechRequest } from './inworld-speech-model.js';

let fake: FakeProviderServer;
let client: ReturnType<typeof InworldTTS>;
const text = 'Hello from the SDK.';
const seconds = Math.max(0.5, text.length / 15);

beforeAll(async () => {
  fake = await startFakeProvider('inworld');
  client = InworldTTS({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('@inworld/tts against the double', () => {
  it('stream() decodes the NDJSON PCM chunks, sent exactly as the router sends them', async () => {
    const bytes = await collect(client.stream({ text, voice: 'Ashley', model: 'inworld-tts-1.5-mini', encoding: 'PCM', sampleRate: 24000 }));
    expect(Math.abs(bytes.length / 2 / 24000 - seconds)).toBeLessThan(0.001);
    const recorded = fake.requests.at(-1)!;
    // The SDK always sends speakingRate and temperature (1.0 by default); the router sends them when given.
    const ours = buildInworldSpeechRequest(
      { modelId: 'inworld-tts-1.5-mini', voice: 'Ashley', text, speed: 1, format: 'pcm', providerOptions: { temperature: 1 } },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path).toBe(ours.path);
    expect(recorded.headers.authorization).toBe(ours.headers.authorization);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('stream() yields 24 kHz MP3 for the router\'s mp3 request body', async () => {
    const bytes = await collect(client.stream({ text, voice: 'Ashley', model: 'inworld-tts-1.5-mini', encoding: 'MP3', sampleRate: 24000 }));
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    const ours = buildInworldSpeechRequest(
      { modelId: 'inworld-tts-1.5-mini', voice: 'Ashley', text, speed: 1, format: 'mp3', providerOptions: { temperature: 1 } },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(fake.requests.at(-1)!.body).toEqual(JSON.parse(ours.body));
  });

  it('generate() reads audioContent from the JSON endpoint', async () => {
    const audio = await client.generate({ text, voice: 'Dennis', model: 'inworld-tts-1.5-max', encoding: 'PCM', sampleRate: 24000 });
    expect(fake.requests.at(-1)!.path).toBe('/tts/v1/voice');
    expect(Math.abs(audio.length / 2 / 24000 - seconds)).toBeLessThan(0.001);
  });

  it('listVoices() reads the voices array', async () => {
    const voices = await client.listVoices();
    expect(voices.map((voice) => voice.voiceId)).toContain('Ashley');
    const spanish = await client.listVoices({ lang: 'ES' });
    expect(spanish.map((voice) => voice.voiceId)).toEqual(['Diego']);
  });

  it('turns the double\'s error bodies into ApiError with the status and the gRPC body', async () => {
    const refused = await collect(client.stream({ text, voice: 'Nobody', encoding: 'PCM' })).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(404);
    expect((refused as ApiError).details).toMatchObject({ code: 5, details: [] });
    const wrongKey = InworldTTS({ apiKey: 'd3Jvbmc6a2V5', baseUrl: fake.baseUrl, maxRetries: 0 });
    const unauthorized = await wrongKey.generate({ text, voice: 'Ashley' }).then(() => undefined, (error: unknown) => error);
    expect((unauthorized as ApiError).code).toBe(401);
  });
});
