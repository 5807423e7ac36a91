// The request line on every server the data plane can run: one JSON line per request with status,
// latency, body bytes and what the route added; none at all when info lines are off.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type LogLevel } from '@voice-router/service-kit';
import { sendJson, trackAbort, waitForWritable } from '../http/response.js';
import { selectServer } from '../server/select-server.js';
import { startApp, type RunningApp } from '../server/node-http.test-support.js';
import { testedServers } from '../server/tested-servers.test-support.js';
import { annotateRequest, logRequests } from './request-log.js';

const running: RunningApp[] = [];
afterEach(() => {
  for (const app of running.splice(0)) app.close();
});

const until = async (condition: () => boolean) => {
  for (let round = 0; round < 200 && !condition(); round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe.each(testedServers())('request lines (%s server)', (choice) => {
  async function start(level: LogLevel = 'info') {
    const lines: string[] = [];
    const logger = createLogger({ name: 'test', level, write: (line) => lines.push(line) });
    const app = await startApp((raw) => {
      const routes = logRequests(raw, logger);
      routes.get('/json', (res) => sendJson(res, trackAbort(res), 404, { error: 'not_found' }));
      routes.post('/stream', async (res) => {
        const state = trackAbort(res);
        annotateRequest(res, { requestId: 'request-1', provider: 'openai', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
        res.onData(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (state.aborted) return;
        res.cork(() => res.writeStatus('200 OK').write(new Uint8Array(1000)));
        res.cork(() => res.write(new Uint8Array(24)));
        res.cork(() => res.end());
      });
      routes.any('/files/*', (res) => sendJson(res, trackAbort(res), 200, {}));
      routes.get('/hang', async (res) => {
        const state = trackAbort(res);
        res.cork(() => res.writeStatus('200 OK').write('partial'));
        await waitForWritable(res, state, AbortSignal.timeout(60_000));
      });
    }, {}, selectServer(choice).server);
    running.push(app);
    const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
    return { base: `http://127.0.0.1:${app.port}`, parsed };
  }

  it('writes one line per request with method, path, status, latency, bytes and the route\'s annotations', async () => {
    const { base, parsed } = await start();
    expect((await fetch(`${base}/json?api_key=x`)).status).toBe(404);
    const streamed = await fetch(`${base}/stream`, { method: 'POST', body: '{}' });
    expect((await streamed.arrayBuffer()).byteLength).toBe(1024);
    await until(() => parsed().length === 2);
    const [json, stream] = parsed();
    expect(json).toMatchObject({ level: 'info', method: 'GET', path: '/json', status: 404, bytes: '{"error":"not_found"}'.length });
    expect(JSON.stringify(json)).not.toContain('api_key');
    expect(json).not.toHaveProperty('requestId');
    expect(stream).toMatchObject({
      method: 'POST', path: '/stream', status: 200, bytes: 1024, requestId: 'request-1', provider: 'openai', traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    expect(stream!.latencyMs).toBeGreaterThan(0);
    expect(stream).not.toHaveProperty('ending');
  });

  it('logs the path a wildcard route was called with, and the method in upper case', async () => {
    const { base, parsed } = await start();
    for (const [method, path] of [['DELETE', '/files/a/b'], ['PATCH', '/files/c'], ['GET', '/files/a/b']]) {
      expect((await fetch(`${base}${path}?token=x`, { method })).status).toBe(200);
    }
    await until(() => parsed().length === 3);
    expect(parsed().map(({ method, path }) => ({ method, path }))).toEqual([
      { method: 'DELETE', path: '/files/a/b' }, { method: 'PATCH', path: '/files/c' }, { method: 'GET', path: '/files/a/b' },
    ]);
  });

  it('logs a request whose client left, once, as client_closed', async () => {
    const { base, parsed } = await start();
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${base}/hang`, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', () => undefined);
      request.setTimeout(5000, () => reject(new Error('no data')));
    });
    await until(() => parsed().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(parsed()).toHaveLength(1);
    expect(parsed()[0]).toMatchObject({ path: '/hang', status: 200, bytes: 7, ending: 'client_closed' });
  });

  it('writes no request line below info, and installs nothing', async () => {
    const { base, parsed } = await start('silent');
    expect((await fetch(`${base}/json`)).status).toBe(404);
    expect(parsed()).toEqual([]);
    const logger = createLogger({ name: 'x', level: 'warn', write: () => undefined });
    const app = selectServer('node').server.App();
    expect(logRequests(app, logger)).toBe(app);
  });
});
