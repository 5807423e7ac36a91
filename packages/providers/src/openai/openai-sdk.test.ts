// Fidelity: the official OpenAI SDK (pinned), pointed at our double with OPENAI_BASE_URL's convention
// (includes /v1), accepts its answers: audio in both formats, and its error bodies as typed APIErrors.

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { startsWithMp3FrameSync } from '../__fixtures__/speech-helpers.js';

let fake: FakeProviderServer;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeProvider('openai');
  client = new OpenAI({ apiKey: fake.apiKey, baseURL: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('official openai SDK against the double', () => {
  it('speaks mp3 and pcm', async () => {
    const mp3 = Buffer.from(await (await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there.' })).arrayBuffer());
    expect(startsWithMp3FrameSync(mp3)).toBe(true);
    const pcm = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'coral', input: 'Hello there.', response_format: 'pcm', instructions: 'Calm.' });
    const bytes = Buffer.from(await pcm.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.length % 2).toBe(0);
    expect(fake.requests.at(-1)!.path).toBe('/v1/audio/speech');
  });

  it('parses the double\'s error bodies as the SDK\'s typed errors', async () => {
    const error = await client.audio.speech.create({ model: 'tts-1', voice: 'robot', input: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('voice');
    const wrongKey = new OpenAI({ apiKey: 'sk-wrong', baseURL: fake.baseUrl, maxRetries: 0 });
    expect(await wrongKey.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }).catch((caught: unknown) => caught)).toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
  });
});
