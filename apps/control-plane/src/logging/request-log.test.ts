// The control plane's request line: one JSON line per request with the X-Request-Id its response
// carries, no query string, the body bytes sent; a caller's plain-token id is kept, anything else replaced.
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type LogLevel } from '@voice-router/service-kit';
import { listen } from '../listen.js';
import { logRequests } from './request-log.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const until = async (condition: () => boolean) => {
  for (let round = 0; round < 200 && !condition(); round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

async function start(level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ name: 'test', level, write: (line) => lines.push(line) });
  const app = express();
  app.use(logRequests(logger));
  app.get('/healthz', (_request, response) => response.json({ status: 'ok' }));
  app.get('/v1/things', (_request, response) => response.status(404).json({ error: 'not_found' }));
  app.get('/stream', (_request, response) => {
    response.write('a'.repeat(1000));
    response.write(Buffer.alloc(24));
    response.end();
  });
  app.get('/hang', (_request, response) => {
    response.write('partial');
  });
  const server = await listen(app, '127.0.0.1', 0);
  servers.push(server);
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
  return { base: `http://127.0.0.1:${server.port}`, parsed };
}

describe('control-plane request lines', () => {
  it('writes one line per request with method, path, status, latency, bytes and the X-Request-Id sent', async () => {
    const { base, parsed } = await start();
    const missing = await fetch(`${base}/v1/things?token=vr_session_secret`);
    expect(missing.status).toBe(404);
    const missingId = missing.headers.get('x-request-id');
    expect(missingId).toMatch(/^[0-9a-f-]{36}$/);
    const streamed = await fetch(`${base}/stream`);
    expect((await streamed.arrayBuffer()).byteLength).toBe(1024);
    await until(() => parsed().length === 2);
    const [first = {}, second = {}] = parsed();
    expect(first).toMatchObject({ level: 'info', method: 'GET', path: '/v1/things', status: 404, bytes: '{"error":"not_found"}'.length, requestId: missingId });
    expect(JSON.stringify(first)).not.toContain('token');
    expect(typeof first.latencyMs).toBe('number');
    expect(second).toMatchObject({ path: '/stream', status: 200, bytes: 1024, requestId: streamed.headers.get('x-request-id') });
    expect(second).not.toHaveProperty('ending');
  });

  it('keeps a caller\'s plain-token X-Request-Id and replaces one that could forge log fields', async () => {
    const { base, parsed } = await start();
    const kept = await fetch(`${base}/v1/things`, { headers: { 'x-request-id': 'lb-7f3a.91:2' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.91:2');
    const replaced = await fetch(`${base}/v1/things`, { headers: { 'x-request-id': 'a" "status":200' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => parsed().length === 2);
    expect(parsed().map((line) => line.requestId)).toEqual(['lb-7f3a.91:2', replaced.headers.get('x-request-id')]);
  });

  it('marks a response the client left before it ended, and does not log health probes', async () => {
    const { base, parsed } = await start();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const controller = new AbortController();
    const hanging = await fetch(`${base}/hang`, { signal: controller.signal });
    expect(hanging.status).toBe(200);
    controller.abort();
    await until(() => parsed().length === 1);
    expect(parsed()).toHaveLength(1);
    expect(parsed()[0]).toMatchObject({ path: '/hang', status: 200, ending: 'client_closed', bytes: 7 });
  });

  it('writes no line above info, but still answers with an X-Request-Id', async () => {
    const { base, parsed } = await start('warn');
    const response = await fetch(`${base}/v1/things`);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(parsed()).toHaveLength(0);
  });
});
