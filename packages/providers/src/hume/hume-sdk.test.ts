// Fidelity: the official `hume` SDK (pinned) pointed at the double must accept its answers, and the router
// must send what the SDK sends.

import { HumeClient, HumeError } from 'hume';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { buildHumeSpeechRequest } from './hume-speech-model.js';

let fake: FakeProviderServer;
let client: HumeClient;

beforeAll(async () => {
  fake = await startFakeProvider('hume');
  client = new HumeClient({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('hume SDK against the double', () => {
  it('tts.synthesizeFileStreaming hands back the 48 kHz pcm body, sent exactly as the router sends it', async () => {
    const text = 'Hello from the SDK.';
    const response = await client.tts.synthesizeFileStreaming({
      utterances: [{ text, voice: { name: 'Ava Song', provider: 'HUME_AI' }, description: 'Warmly.' }],
      format: { type: 'pcm' },
      version: '2',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Math.abs(bytes.length / 2 / 48000 - Math.max(0.5, text.length / 15))).toBeLessThan(0.001);

    const recorded = fake.requests.at(-1)!;
    const ours = buildHumeSpeechRequest(
      { modelId: 'octave-2', voice: 'Ava Song', text, instructions: 'Warmly.', format: 'mp3', providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path).toBe(ours.path);
    expect(recorded.headers['x-hume-api-key']).toBe(ours.headers['x-hume-api-key']);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('turns the double error answers into the SDK errors with their status', async () => {
    const refused = await client.tts
      .synthesizeFileStreaming({ utterances: [{ text: 'Hi', voice: { name: 'Nobody', provider: 'HUME_AI' } }], format: { type: 'pcm' } })
      .then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(HumeError);
    expect((refused as HumeError).statusCode).toBe(404);
    expect((refused as HumeError).body).toMatchObject({ code: expect.any(String), error: 'Not Found' });
    const wrongKey = new HumeClient({ apiKey: 'wrong', baseUrl: fake.baseUrl, maxRetries: 0 });
    const unauthorized = await wrongKey.tts.synthesizeFileStreaming({ utterances: [{ text: 'Hi' }] }).then(() => undefined, (error: unknown) => error);
    expect((unauthorized as HumeError).statusCode).toBe(401);
  });

  it('tts.voices.list pages through the double\'s voices with the SDK\'s pager', async () => {
    const names: string[] = [];
    const page = await client.tts.voices.list({ provider: 'HUME_AI', pageSize: 3 });
    for await (const voice of page) names.push(voice.name);
    expect(names).toHaveLength(7);
    expect(names).toContain('Ava Song');
    const custom = await client.tts.voices.list({ provider: 'CUSTOM_VOICE' });
    expect(custom.data.map((voice) => [voice.name, voice.provider, voice.compatibleOctaveModels])).toEqual([['Our Support Voice', 'CUSTOM_VOICE', ['1', '2']]]);
  });
});
