// Fidelity: the official ElevenLabs SDK (@elevenlabs/elevenlabs-js, pinned), pointed at our double with
// ELEVENLABS_BASE_URL's convention (bare host), accepts its answers in both formats and its errors.

import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { collect, probeMp3, startsWithMp3FrameSync } from '../__fixtures__/speech-helpers.js';

let fake: FakeProviderServer;
let client: ElevenLabsClient;

beforeAll(async () => {
  fake = await startFakeProvider('elevenlabs');
  client = new ElevenLabsClient({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

async function read(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return collect(stream as unknown as AsyncIterable<Uint8Array>);
}

describe('official ElevenLabs SDK against the double', () => {
  it('streams mp3_44100_128 (the router\'s choice) and pcm_24000', async () => {
    const mp3 = await read(await client.textToSpeech.stream('21m00Tcm4TlvDq8ikWAM', { text: 'Hello there.', modelId: 'eleven_flash_v2_5', outputFormat: 'mp3_44100_128' }));
    expect(startsWithMp3FrameSync(mp3)).toBe(true);
    const probe = await probeMp3(mp3);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 44100, channels: 1 });
    expect(fake.requests.at(-1)!.path).toBe('/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=mp3_44100_128');
    const pcm = await read(await client.textToSpeech.convert('21m00Tcm4TlvDq8ikWAM', { text: 'Hello.', modelId: 'eleven_flash_v2_5', outputFormat: 'pcm_24000' }));
    expect(pcm.length % 2).toBe(0);
    expect(pcm.length).toBeGreaterThan(0);
  });

  it('surfaces the double\'s error answers as ElevenLabsError with the status', async () => {
    const unknownVoice = await client.textToSpeech.stream('no-such-voice', { text: 'x', modelId: 'eleven_flash_v2_5' }).catch((caught: unknown) => caught);
    expect(unknownVoice).toBeInstanceOf(ElevenLabsError);
    expect((unknownVoice as ElevenLabsError).statusCode).toBe(404);
    const wrongKey = new ElevenLabsClient({ apiKey: 'wrong', baseUrl: fake.baseUrl, maxRetries: 0 });
    const refused = await wrongKey.textToSpeech.stream('21m00Tcm4TlvDq8ikWAM', { text: 'x', modelId: 'eleven_flash_v2_5' }).catch((caught: unknown) => caught);
    expect((refused as ElevenLabsError).statusCode).toBe(401);
  });
});
