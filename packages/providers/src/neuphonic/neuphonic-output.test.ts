// End to end through the adapter: Neuphonic's SSE of base64 pcm comes out as raw 24 kHz pcm and mp3, and an error
// event inside the stream fails the stream instead of passing as audio.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPools } from '../http/connection-pools.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { collect, rejectionOf } from '../__fixtures__/speech-helpers.js';
import { probeAudio } from '../__fixtures__/http.js';
import { neuphonicProvider } from './index.js';

let fake: FakeProviderServer;
const pools = new ConnectionPools();
const voice = 'eeb488b8-d532-4235-aa57-f070cfc44750';
const text = 'Unwrapped from server-sent events.';
const seconds = Math.max(0.5, text.length / 15);

beforeAll(async () => {
  fake = await startFakeProvider('neuphonic');
});
afterAll(async () => {
  await fake.close();
  await pools.close();
});

const synthesize = async (baseUrl: string, format: 'mp3' | 'pcm') => {
  const adapter = neuphonicProvider.create({ apiKey: fake.apiKey, baseUrl }, { attemptTimeoutMs: 10_000, pools });
  const result = await adapter.synthesize({ modelId: 'default', voice, text, format, providerOptions: {} }, { signal: new AbortController().signal });
  return collect(result.audio);
};

describe('neuphonic output conversion', () => {
  it('decodes the base64 events into 24 kHz s16le (whole events, so the duration is close)', async () => {
    const bytes = await synthesize(fake.baseUrl, 'pcm');
    expect(bytes.length % 2).toBe(0);
    expect(Math.abs(bytes.length / 2 / 24_000 - seconds)).toBeLessThan(0.1);
  });

  it('encodes mp3 at 24 kHz mono', async () => {
    const probe = await probeAudio(await synthesize(fake.baseUrl, 'mp3'));
    if (probe) {
      expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
      expect(Math.abs(probe.durationSeconds - seconds)).toBeLessThan(0.2);
    }
  });

  it('fails the stream on an in-stream error event', async () => {
    const audio = Buffer.alloc(4800).toString('base64');
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ status_code: 200, data: { audio, text: '', sampling_rate: 24000 } })}\n\n`);
      response.end(`data: ${JSON.stringify({ status_code: 500, errors: ['generation failed'] })}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const error = await rejectionOf(synthesize(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'pcm'));
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).not.toContain('generation failed');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
