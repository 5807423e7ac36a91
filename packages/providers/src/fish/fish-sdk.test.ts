// Fidelity: the official fish-audio SDK (pinned) pointed at the double must accept its answers; it sends msgpack.

import { FishAudioClient } from 'fish-audio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { buildFishSpeechRequest } from './fish-speech-model.js';

let fake: FakeProviderServer;
const voice = '802e3bc2b27e49c2995d23ef70e6ac89';

beforeAll(async () => {
  fake = await startFakeProvider('fish');
});
afterAll(() => fake.close());

async function readAll(stream: unknown): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  if (stream && typeof (stream as ReadableStream).getReader === 'function') {
    const reader = (stream as ReadableStream<Uint8Array>).getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(part.value);
  } else {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

describe('fish-audio SDK against the double', () => {
  // A body comparison is not possible: the SDK body is msgpack; the double decoding it and accepting
  // reference_id (an unknown one is a 404) shows the fields arrived.
  it('textToSpeech.convert streams the pcm body; the SDK and the router send the same path, auth and model header', async () => {
    const client = new FishAudioClient({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    const text = 'Hello from the SDK.';
    const stream = await client.textToSpeech.convert({ text, reference_id: voice, format: 'pcm', sample_rate: 24000 }, 's1');
    const bytes = await readAll(stream);
    expect(Math.abs(bytes.length / 2 / 24000 - Math.max(0.5, text.length / 15))).toBeLessThan(0.001);

    const recorded = fake.requests.at(-1)!;
    expect(recorded.headers['content-type']).toContain('application/msgpack');
    const ours = buildFishSpeechRequest({ modelId: 's1', voice, text, format: 'pcm', providerOptions: {} }, { apiKey: fake.apiKey, settings: {} });
    expect(recorded.path).toBe(ours.path);
    expect(recorded.headers.authorization).toBe(ours.headers.authorization);
    expect(recorded.headers.model).toBe(ours.headers.model);
  });

  it('surfaces the double errors with their status', async () => {
    const client = new FishAudioClient({ apiKey: 'wrong', baseUrl: fake.baseUrl });
    const error = await client.textToSpeech.convert({ text: 'Hi', reference_id: voice }, 's1', { maxRetries: 0 }).then(() => undefined, (reason: unknown) => reason);
    expect((error as { statusCode?: number }).statusCode).toBe(401);
  });

  it('voices.search reads the double\'s model page (self=true), as the router lists it', async () => {
    const client = new FishAudioClient({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    const page = await client.voices.search({ self: true, page_size: 2, page_number: 2 });
    expect(page.total).toBe(4);
    expect(page.items.map((item) => item.title)).toEqual(['Our Storyteller', 'Draft Clone']);
    expect(page.items[1]!.state).toBe('training');
    const recorded = new URL(fake.requests.at(-1)!.path, fake.origin);
    expect(recorded.pathname).toBe('/model');
    expect(Object.fromEntries(recorded.searchParams)).toEqual({ self: 'true', page_size: '2', page_number: '2' });
  });
});
