// Fidelity: the official @deepgram/sdk (pinned) pointed at the double must accept its answers, and the router
// must send what the SDK sends.

import { Deepgram, DeepgramClient, DeepgramError } from '@deepgram/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { buildDeepgramSpeechRequest } from './deepgram-speech-model.js';

let fake: FakeProviderServer;
let client: DeepgramClient;

beforeAll(async () => {
  fake = await startFakeProvider('deepgram');
  client = new DeepgramClient({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
});
afterAll(() => fake.close());

describe('@deepgram/sdk against the double', () => {
  it('speak.v1.audio.generate streams MP3 the SDK hands back as a binary response', async () => {
    const response = await client.speak.v1.audio.generate({ text: 'Hello from the SDK.', model: 'aura-2-thalia-en', encoding: 'mp3', bit_rate: 48000 });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 22050, channels: 1 });
  });

  it('sends the same path, query, auth and body as the router', async () => {
    await (
      await client.speak.v1.audio.generate({ text: 'Same request.', model: 'aura-2-thalia-en', encoding: 'linear16', sample_rate: 24000, container: 'none' })
    ).arrayBuffer();
    const recorded = fake.requests.at(-1)!;
    const ours = buildDeepgramSpeechRequest(
      { modelId: 'aura-2', voice: 'thalia-en', text: 'Same request.', format: 'pcm', providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    const sdkUrl = new URL(recorded.path, 'http://x');
    const ourUrl = new URL(ours.path, 'http://x');
    expect(sdkUrl.pathname).toBe(ourUrl.pathname);
    expect(Object.fromEntries(sdkUrl.searchParams)).toEqual(Object.fromEntries(ourUrl.searchParams));
    expect(recorded.headers.authorization).toBe(ours.headers.authorization);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('manage.v1.models.list reads the double model list', async () => {
    const models = await client.manage.v1.models.list();
    expect(models.tts?.length).toBeGreaterThan(100);
    expect(models.tts?.find((model) => model.canonical_name === 'aura-2-thalia-en')).toMatchObject({ name: 'thalia', architecture: 'aura-2' });
  });

  it('turns the double error bodies into the SDK typed errors', async () => {
    const unknown = await client.speak.v1.audio.generate({ text: 'Hi', model: 'aura-2-nobody-en', encoding: 'mp3' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unknown).toBeInstanceOf(Deepgram.BadRequestError);
    expect((unknown as DeepgramError).body).toMatchObject({ err_code: 'Bad Request' });
    const wrongKey = new DeepgramClient({ apiKey: 'wrong', baseUrl: fake.baseUrl });
    const refused = await wrongKey.speak.v1.audio.generate({ text: 'Hi', model: 'aura-2-thalia-en' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DeepgramError);
    expect((refused as DeepgramError).statusCode).toBe(401);
    expect((refused as DeepgramError).body).toMatchObject({ err_code: 'INVALID_AUTH' });
  });
});
