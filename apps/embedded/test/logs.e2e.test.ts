// Logs and trace context end to end: the request line a speech request leaves (X-Request-Id, status,
// provider, audio bytes, trace id), the W3C traceparent reaching the provider with the same trace id
// and the router's own span, and LOG_LEVEL=silent writing no request lines at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer } from '@voice-router/provider-fakes';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

function speak(system: RunningSystem, key: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${system.baseUrl}/v1/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ model: 'openai/tts-1', voice: 'alloy', input: 'Traced through the router' }),
  });
}

/** The JSON request lines the processes wrote so far. */
function requestLines(system: RunningSystem): Array<Record<string, unknown>> {
  return system.logs().split('\n').filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function lineFor(system: RunningSystem, requestId: string): Promise<Record<string, unknown>> {
  for (let round = 0; round < 100; round += 1) {
    const line = requestLines(system).find((entry) => entry.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no request line for ${requestId}:\n${system.logs().slice(-3000)}`);
}

describe('logs and trace context (embedded mode)', () => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;
  let key: string;

  beforeAll(async () => {
    fake = await startFakeProviders({ chunkBytes: 4096 });
    system = await startSystem({
      mode: 'embedded',
      environment: { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'), LOG_LEVEL: 'info' },
    });
    key = (await fundedKey(system, '1')).key;
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('passes a valid traceparent upstream with the same trace id and a new parent id, and logs one request line', async () => {
    const response = await speak(system, key, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` });
    expect(response.status).toBe(200);
    const audio = Buffer.from(await response.arrayBuffer());
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const upstream = fake.requests.at(-1)!.headers.traceparent as string;
    expect(upstream).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(upstream.split('-')[2]).not.toBe(CALLER_SPAN);
    expect(upstream.split('-')[2]).not.toBe('0'.repeat(16));

    const line = await lineFor(system, requestId);
    expect(line).toMatchObject({
      level: 'info', method: 'POST', path: '/v1/audio/speech', status: 200, provider: 'openai', bytes: audio.byteLength, traceId: TRACE_ID,
    });
    expect(typeof line.latencyMs).toBe('number');
    expect(requestLines(system).filter((entry) => entry.requestId === requestId)).toHaveLength(1);
  });

  it('ignores an invalid traceparent: nothing goes upstream and the line has no trace id', async () => {
    for (const traceparent of [`00-${'0'.repeat(32)}-${CALLER_SPAN}-01`, `00-${TRACE_ID.toUpperCase()}-${CALLER_SPAN}-01`, 'nonsense']) {
      const response = await speak(system, key, { traceparent });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(fake.requests.at(-1)!.headers).not.toHaveProperty('traceparent');
      expect(await lineFor(system, response.headers.get('x-request-id')!)).not.toHaveProperty('traceId');
    }
  });

  it('logs refused requests too, and never the key or the provider key', async () => {
    const refused = await speak(system, 'pk_not-a-real-key-but-long-enough-to-look-like-one');
    expect(refused.status).toBe(401);
    await refused.arrayBuffer();
    for (let round = 0; round < 100 && !requestLines(system).some((entry) => entry.status === 401); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(requestLines(system).find((entry) => entry.status === 401)).toMatchObject({ path: '/v1/audio/speech', method: 'POST' });
    const logs = system.logs();
    expect(logs).not.toContain(key);
    expect(logs).not.toContain('pk_not-a-real-key');
    expect(logs).not.toContain(fake.apiKey);
  });
});

describe('LOG_LEVEL=silent (embedded mode)', () => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;

  beforeAll(async () => {
    fake = await startFakeProviders({ chunkBytes: 4096 });
    system = await startSystem({
      mode: 'embedded',
      environment: { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'), LOG_LEVEL: 'silent' },
    });
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('writes no log line at all, request lines included, and still serves and traces', async () => {
    const { key } = await fundedKey(system, '1');
    const response = await speak(system, key, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-00` });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(fake.requests.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(system.logs().split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });
});
