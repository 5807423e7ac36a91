// The route guard on every server the data plane can run: a handler's throw or rejection is a 500
// for that request alone (or a cut connection once headers went out), logged once, and the server
// keeps answering.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@voice-router/service-kit';
import { selectServer } from '../server/select-server.js';
import { startApp, type RunningApp } from '../server/node-http.test-support.js';
import { testedServers } from '../server/tested-servers.test-support.js';
import { sendJson, trackAbort } from './response.js';
import { guardRoutes } from './route-guard.js';

const running: RunningApp[] = [];
afterEach(() => {
  for (const app of running.splice(0)) app.close();
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Reads a response to its end; rejects when the transfer is cut. */
function readToEnd(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe.each(testedServers())('the route guard (%s server)', (choice) => {
  async function start() {
    const lines: string[] = [];
    const logger = createLogger({ name: 'test', level: 'info', write: (line) => lines.push(line) });
    const app = await startApp((raw) => {
      const routes = guardRoutes(raw, logger);
      routes.get('/sync', () => {
        throw new Error('thrown at once');
      });
      routes.get('/async', async (res) => {
        trackAbort(res);
        await tick();
        throw new Error('rejected later');
      });
      routes.get('/mid-stream-async', async (res) => {
        const state = trackAbort(res);
        state.responded = true;
        res.cork(() => res.writeStatus('200 OK').write('first part, '));
        await tick();
        throw new Error('failed mid-stream');
      });
      routes.get('/after-end', (res) => {
        sendJson(res, trackAbort(res), 200, { ok: true });
        throw new Error('failed after answering');
      });
      routes.get('/ok', (res) => sendJson(res, trackAbort(res), 200, { ok: true }));
    }, {}, selectServer(choice).server);
    running.push(app);
    const base = `http://127.0.0.1:${app.port}`;
    const failures = () => lines.filter((line) => line.includes('request failed with an uncaught error'));
    return { base, failures };
  }

  it('answers 500 internal_error for a synchronous throw and a rejected promise, logs each once, and keeps serving', async () => {
    const { base, failures } = await start();
    for (const path of ['/sync', '/async']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'internal_error' });
    }
    expect(failures()).toHaveLength(2);
    expect(failures()[0]).toContain('thrown at once');
    expect(failures()[1]).toContain('rejected later');
    expect(await (await fetch(`${base}/ok`)).json()).toEqual({ ok: true });
  });

  it('closes the connection when headers already went out, so the client sees a cut transfer', async () => {
    const { base, failures } = await start();
    await expect(readToEnd(`${base}/mid-stream-async`)).rejects.toThrow();
    expect(failures()).toHaveLength(1);
    expect((await readToEnd(`${base}/ok`)).status).toBe(200);
  });

  it('leaves an answered response alone when its handler throws afterwards', async () => {
    const { base, failures } = await start();
    expect(await readToEnd(`${base}/after-end`)).toEqual({ status: 200, body: '{"ok":true}' });
    expect(failures()).toHaveLength(1);
    expect((await readToEnd(`${base}/ok`)).status).toBe(200);
  });
});
