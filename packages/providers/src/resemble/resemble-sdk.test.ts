// Fidelity: the official @resemble/node SDK (pinned) pointed at the double must accept its answers: the
// streaming WAV its StreamDecoder reads, the paged voice list, and the error shape it reports.

import { Resemble } from '@resemble/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { buildResembleSpeechRequest } from './resemble-speech-model.js';

let fake: FakeProviderServer;

beforeAll(async () => {
  fake = await startFakeProvider('resemble');
  // The SDK keeps its hosts and key in module state, as its README shows.
  Resemble.setApiKey(fake.apiKey);
  Resemble.setSynthesisUrl(fake.baseUrl);
  Resemble.setBaseUrl(`${fake.baseUrl}/api`);
});
afterAll(() => fake.close());

describe('@resemble/node against the double', () => {
  it('v2.clips.stream decodes the streamed WAV into the tone samples, sent with the router body fields', async () => {
    const text = 'Hello from the SDK.';
    const chunks: Uint8Array[] = [];
    const input = { data: text, project_uuid: 'a1b2c3d4', voice_uuid: '55592656', sample_rate: 44100 as const, precision: 'PCM_16' as const };
    for await (const chunk of Resemble.v2.clips.stream(input, { ignoreWavHeader: true })) chunks.push((chunk as { data: Uint8Array }).data);
    const bytes = Buffer.concat(chunks);
    // The SDK drops the first 36 header bytes; the rest is the data chunk's 8-byte header and the samples.
    expect(Math.abs((bytes.length - 8) / 2 / 44100 - Math.max(0.5, text.length / 15))).toBeLessThan(0.001);

    const recorded = fake.requests.at(-1)!;
    expect(recorded.headers['x-access-token']).toBe(fake.apiKey);
    const ours = buildResembleSpeechRequest(
      { modelId: 'chatterbox', voice: '55592656', text, format: 'pcm', providerOptions: { project_uuid: 'a1b2c3d4' } },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path).toBe(`/resemble${ours.path}`);
    const { model, ...shared } = JSON.parse(ours.body) as Record<string, unknown>;
    expect(model).toBe('chatterbox');
    // The SDK adds its own wav_encoded_timestamps flag; every field it shares with the router is the same.
    expect(recorded.body).toEqual({ ...shared, wav_encoded_timestamps: false });
  });

  it('v2.voices.all reads the paged voice list', async () => {
    const page = await Resemble.v2.voices.all(1, 10);
    expect(page.success).toBe(true);
    if (!('items' in page)) throw new Error('expected a page');
    expect(page).toMatchObject({ page: 1, num_pages: 1, page_size: 10 });
    expect(page.items.map((voice: { uuid: string }) => voice.uuid)).toContain('fb2d2858');
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Token token=${fake.apiKey}`);
  });

  it('reports the double error bodies as the SDK does', async () => {
    const missing = await (async () => {
      for await (const _chunk of Resemble.v2.clips.stream({ data: 'Hi', project_uuid: 'p', voice_uuid: '00000000', precision: 'PCM_16' })) return undefined;
      return undefined;
    })().then(() => undefined, (error: unknown) => error);
    expect(missing).toBeInstanceOf(Error);
    // The SDK throws the message of Resemble's {success: false, message} body.
    expect((missing as Error).message).toContain(fake.leakMarker);
    Resemble.setApiKey('wrong');
    try {
      expect(await Resemble.v2.voices.all(1, 10)).toEqual({ success: false, message: expect.stringContaining(fake.leakMarker) });
    } finally {
      Resemble.setApiKey(fake.apiKey);
    }
  });
});
