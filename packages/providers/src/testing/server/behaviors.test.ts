// Fake behaviours: status overrides, hang, dying sockets, pacing, one-port serving.

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, startFakeProviders } from '../start-fake-provider.js';
import type { FakeProviderServer } from '../types.js';
import { post } from '../../__fixtures__/http.js';

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const openAIBody = { model: 'tts-1', input: 'Hello from the fake.', voice: 'alloy', response_format: 'pcm' };
const speech = (server: FakeProviderServer) =>
  post(`${server.baseUrlFor('openai')}/audio/speech`, { authorization: `Bearer ${server.apiKey}` }, openAIBody);

/** Reads a response chunk by chunk with node:http, so chunk boundaries and socket errors are visible. */
function readChunks(server: FakeProviderServer, signal?: AbortSignal): Promise<{ chunks: number[]; error?: Error }> {
  return new Promise((resolve) => {
    const chunks: number[] = [];
    const outgoing = request(
      `${server.baseUrlFor('openai')}/audio/speech`,
      { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, signal },
      (response) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk.length));
        response.on('end', () => resolve({ chunks }));
        response.on('error', (error) => resolve({ chunks, error }));
      },
    );
    outgoing.on('error', (error) => resolve({ chunks, error }));
    outgoing.end(JSON.stringify(openAIBody));
  });
}

describe('fake behaviours', () => {
  it('answers with the real error body for { status, times } and then recovers', async () => {
    fake = await startFakeProvider('openai');
    fake.setBehavior({ status: 503, times: 2 });
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await speech(fake)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(fake.requests.map((recorded) => recorded.outcome)).toEqual(['error-response', 'error-response', 'completed']);
  });

  it('hangs until the client gives up, then records the abort', async () => {
    fake = await startFakeProvider('openai');
    fake.setBehavior({ hang: true });
    const controller = new AbortController();
    const pending = readChunks(fake, controller.signal);
    // Wait for the request to arrive (polling, not a fixed sleep: the machine may be busy).
    for (let waited = 0; fake.requests[0]?.outcome !== 'hung' && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fake.requests[0]!.outcome).toBe('hung');
    controller.abort();
    expect((await pending).error).toBeDefined();
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
  });

  it('destroys the socket after dieAfterBytes', async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 1000, totalBytes: 100_000 });
    fake.setBehavior({ dieAfterBytes: 3000 });
    const result = await readChunks(fake);
    expect(result.error).toBeDefined();
    expect(result.chunks.reduce((sum, size) => sum + size, 0)).toBe(3000);
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('died');
  });

  it('paces chunks of chunkBytes and honours totalBytes and firstByteDelayMs', async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 1000, chunkIntervalMs: 10, totalBytes: 5001, firstByteDelayMs: 100 });
    const started = Date.now();
    const result = await readChunks(fake);
    expect(Date.now() - started).toBeGreaterThanOrEqual(130);
    expect(result.chunks).toEqual([1000, 1000, 1000, 1000, 1000]); // 5001 rounded down to whole samples
    expect(fake.requests[0]!.audioBytesSent).toBe(5000);
  });

  it('delays the first audio byte for { firstByteDelayMs } and still streams the whole body', async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 1000, totalBytes: 4000 });
    fake.setBehavior({ firstByteDelayMs: 150 });
    const started = Date.now();
    const result = await readChunks(fake);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(result.chunks.reduce((sum, size) => sum + size, 0)).toBe(4000);
    expect(fake.requests[0]!.outcome).toBe('completed');
  });

  it('records an aborted stream when the client leaves mid-body', async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 1000, chunkIntervalMs: 20, totalBytes: 200_000 });
    const controller = new AbortController();
    const pending = readChunks(fake, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 80));
    controller.abort();
    await pending;
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
    expect(fake.requests[0]!.audioBytesSent).toBeLessThan(200_000);
  });

  it('serves all three providers on one port', async () => {
    const combined = await startFakeProviders();
    fake = combined as FakeProviderServer; // closed by afterEach; this test reads no baseUrl
    const openai = await speech(fake);
    const elevenlabs = await post(
      `${fake.baseUrlFor('elevenlabs')}/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=pcm_24000`,
      { 'xi-api-key': fake.apiKey },
      { text: 'Hello', model_id: 'eleven_flash_v2_5' },
    );
    const cartesia = await post(
      `${fake.baseUrlFor('cartesia')}/tts/bytes`,
      { authorization: `Bearer ${fake.apiKey}`, 'cartesia-version': '2026-08-14' },
      {
        model_id: 'sonic-3',
        transcript: 'Hello',
        voice: { id: '694f9389-aac1-45b6-b726-9d9369183238' },
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
      },
    );
    expect([openai.status, elevenlabs.status, cartesia.status]).toEqual([200, 200, 200]);
    expect('baseUrl' in combined ? combined.baseUrl : fake.origin).toBe(fake.origin);
    expect([fake.baseUrlFor('openai'), fake.baseUrlFor('elevenlabs'), fake.baseUrlFor('cartesia')]).toEqual([
      `${fake.origin}/v1`,
      fake.origin,
      fake.origin,
    ]);
    expect(fake.requests.map((recorded) => recorded.kind)).toEqual(['openai', 'elevenlabs', 'cartesia']);
    expect((await post(`${fake.origin}/elsewhere`, {}, {})).status).toBe(404);
  });
});

describe('error behaviours for leak tests', () => {
  const requests = {
    openai: (server: FakeProviderServer) => speech(server),
    elevenlabs: (server: FakeProviderServer) =>
      post(`${server.baseUrl}/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream`, { 'xi-api-key': server.apiKey }, { text: 'x' }),
    cartesia: (server: FakeProviderServer) => post(`${server.baseUrl}/tts/bytes`, { authorization: `Bearer ${server.apiKey}` }, {}),
  };

  it.each(['openai', 'elevenlabs', 'cartesia'] as const)('%s: markEveryField puts the marker in every body string and in the headers', async (kind) => {
    fake = await startFakeProvider(kind);
    fake.setBehavior({ status: 500, times: 1, markEveryField: true });
    const result = await requests[kind](fake);
    expect(result.status).toBe(500);
    const strings: string[] = [];
    const collectStrings = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collectStrings);
    };
    collectStrings(JSON.parse(result.text));
    expect(strings.length).toBeGreaterThanOrEqual(4);
    for (const text of strings) expect(text).toBe(fake.leakMarker);
    const markedHeaders = [...result.headers].filter(([, value]) => value.includes(fake!.leakMarker)).map(([name]) => name);
    expect(markedHeaders).toEqual(expect.arrayContaining(['retry-after', 'x-debug-trace', kind === 'elevenlabs' ? 'request-id' : 'x-request-id']));
    expect((await requests[kind](fake)).status).not.toBe(500);
  });

  it('adds the headers a { status } behaviour names, e.g. Retry-After', async () => {
    fake = await startFakeProvider('openai');
    fake.setBehavior({ status: 429, times: 1, headers: { 'retry-after': '2' } });
    const result = await speech(fake);
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('2');
    expect(JSON.parse(result.text)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });
});

describe('fake options', () => {
  it('keeps no request records when recordRequests is false', async () => {
    fake = await startFakeProvider('openai', { recordRequests: false });
    expect((await speech(fake)).status).toBe(200);
    expect(fake.requests).toEqual([]);
  });
});
