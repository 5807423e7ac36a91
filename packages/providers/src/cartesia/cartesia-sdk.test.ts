// Fidelity: the official Cartesia SDK (@cartesia/cartesia-js, pinned), pointed at our double with
// CARTESIA_BASE_URL's convention (bare host), accepts its answers in both formats and its errors.

import Cartesia from '@cartesia/cartesia-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { probeMp3, startsWithMp3FrameSync } from '../__fixtures__/speech-helpers.js';

let fake: FakeProviderServer;
let client: Cartesia;
const VOICE = '694f9389-aac1-45b6-b726-9d9369183238';

beforeAll(async () => {
  fake = await startFakeProvider('cartesia');
  client = new Cartesia({ apiKey: fake.apiKey, baseURL: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('official Cartesia SDK against the double', () => {
  it('generates mp3 (44.1 kHz, 128 kbps: the router\'s choice) and raw pcm_s16le', async () => {
    const mp3Response = await client.tts.generate({
      model_id: 'sonic-3',
      transcript: 'Hello there.',
      voice: { mode: 'id', id: VOICE },
      output_format: { container: 'mp3', sample_rate: 44100, bit_rate: 128000 },
    });
    const mp3 = Buffer.from(await mp3Response.arrayBuffer());
    expect(startsWithMp3FrameSync(mp3)).toBe(true);
    const probe = await probeMp3(mp3);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 1 });
    expect(fake.requests.at(-1)!.headers['cartesia-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const pcmResponse = await client.tts.generate({
      model_id: 'sonic-3',
      transcript: 'Hello there.',
      voice: { mode: 'id', id: VOICE },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
    });
    const pcm = Buffer.from(await pcmResponse.arrayBuffer());
    expect(pcm.length).toBeGreaterThan(0);
    expect(pcm.length % 2).toBe(0);
  });

  it('surfaces the double\'s error answers as the SDK\'s typed errors', async () => {
    const wrongKey = new Cartesia({ apiKey: 'wrong', baseURL: fake.baseUrl, maxRetries: 0 });
    const refused = await wrongKey.tts
      .generate({ model_id: 'sonic-3', transcript: 'x', voice: { mode: 'id', id: VOICE }, output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 } })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(Cartesia.AuthenticationError);
    const unknownVoice = await client.tts
      .generate({ model_id: 'sonic-3', transcript: 'x', voice: { mode: 'id', id: '00000000-0000-0000-0000-000000000000' }, output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 } })
      .catch((caught: unknown) => caught);
    expect(unknownVoice).toBeInstanceOf(Cartesia.NotFoundError);
  });
});
