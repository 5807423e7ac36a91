// Fidelity: the official lmnt-node SDK (pinned) pointed at the double must accept its answers, and the router
// must send what the SDK sends.

import Lmnt from 'lmnt-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { buildLmntSpeechRequest } from './lmnt-speech-model.js';

let fake: FakeProviderServer;
let client: Lmnt;

beforeAll(async () => {
  fake = await startFakeProvider('lmnt');
  client = new Lmnt({ apiKey: fake.apiKey, baseURL: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('lmnt-node against the double', () => {
  it('speech.generate streams MP3 the SDK hands back as the response body', async () => {
    const response = await client.speech.generate({ text: 'Hello from the SDK.', voice: 'leah', model: 'blizzard', format: 'mp3', sample_rate: 24000 });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('sends the same path, auth, version header and body as the router', async () => {
    await (await client.speech.generate({ text: 'Same request.', voice: 'ava', model: 'blizzard', format: 'pcm_s16le', sample_rate: 24000 })).arrayBuffer();
    const recorded = fake.requests.at(-1)!;
    const ours = buildLmntSpeechRequest(
      { modelId: 'blizzard', voice: 'ava', text: 'Same request.', format: 'pcm', providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path).toBe(ours.path);
    expect(recorded.headers['x-api-key']).toBe(ours.headers['x-api-key']);
    expect(recorded.headers['lmnt-version']).toBe(ours.headers['lmnt-version']);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('turns the double error bodies into the SDK typed errors', async () => {
    const missing = await client.speech.generate({ text: 'Hi', voice: 'nobody' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(Lmnt.NotFoundError);
    expect((missing as InstanceType<typeof Lmnt.NotFoundError>).type).toBe('not_found_error');
    const wrongKey = new Lmnt({ apiKey: 'wrong', baseURL: fake.baseUrl, maxRetries: 0 });
    await expect(wrongKey.speech.generate({ text: 'Hi', voice: 'leah' })).rejects.toBeInstanceOf(Lmnt.AuthenticationError);
  });

  it('voices.list gets the double\'s array, as the router reads it', async () => {
    const voices = await client.voices.list({ owner: 'all' });
    expect(Array.isArray(voices)).toBe(true);
    expect(voices.find((voice) => voice.id === 'leah')).toMatchObject({ name: 'Leah', owner: 'system', state: 'ready', gender: 'female' });
    expect(voices.some((voice) => voice.owner === 'me' && voice.state === 'training')).toBe(true);
    expect(fake.requests.at(-1)!.path).toBe('/v1/ai/voice/list?owner=all');
  });
});
