// Body-reading failures a client causes are 400 invalid_body, never 500 (the fuzz found a charset one).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@voice-router/contracts';
import { openDatabase, type Database } from '@voice-router/ledger';
import { createLogger } from '@voice-router/service-kit';
import { createControlPlaneApp } from './control-plane.js';
import { listen } from './listen.js';

let database: Database;
let server: { port: number; close(): Promise<void> };

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
  server = await listen(createControlPlaneApp({ database, logger: createLogger({ name: 'test', level: 'error' }) }), '127.0.0.1', 0);
});

afterAll(async () => {
  await server?.close();
  await database?.close();
});

describe('unreadable requests', () => {
  it('answers a path parameter that is not valid percent-encoding with 400 invalid_body', async () => {
    for (const id of ['%C0%AF', '%E0%A4%A', '%FF']) {
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: 'Bearer vr_session_x' } });
      expect(response.status, id).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body', details: 'the path is not valid percent-encoding' });
    }
  });

  it.each([
    ['an unsupported charset', { 'content-type': 'application/json; charset=latin1' }, '{}'],
    ['an unsupported content encoding', { 'content-type': 'application/json', 'content-encoding': 'zstd' }, '{}'],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"device_code":'],
  ])('answers %s with 400 invalid_body', async (_name, headers, body) => {
    for (const path of ['/v1/auth/poll', '/v1/keys', '/v1/audio/speech/']) {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: 'POST', headers, body });
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body' });
    }
  });
});

describe('exact paths', () => {
  const send = (method: string, path: string) =>
    fetch(`http://127.0.0.1:${server.port}${path}`, { method, headers: { authorization: 'Bearer vr_session_x', 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });

  it.each([
    ['GET', '/v1/keys'], ['POST', '/v1/keys'], ['PATCH', '/v1/keys/key_1'], ['DELETE', '/v1/keys/key_1'], ['GET', '/v1/usage'],
    ['GET', '/v1/auth/whoami'], ['GET', '/v1/auth/sessions'], ['DELETE', '/v1/auth/sessions/s_1'], ['POST', '/v1/auth/logout-all'],
    ['POST', '/v1/auth/device-code'], ['POST', '/v1/auth/poll'], ['POST', '/v1/auth/logout'],
    ['GET', '/v1/billing/methods'], ['POST', '/v1/billing/topup'], ['POST', '/v1/billing/webhook'],
    ['GET', '/healthz'], ['GET', '/readyz'], ['GET', '/v1/openapi.json'],
  ])('serves %s %s as written, and as 404 not_found in another case or with a trailing slash', async (method, path) => {
    expect((await send(method, path)).status, path).not.toBe(404);
    for (const variant of [path.toUpperCase(), path.replace('/v1/', '/V1/'), `${path}/`]) {
      if (variant === path) continue;
      const response = await send(method, variant);
      expect(response.status, variant).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', details: 'no such endpoint' });
    }
  });

  // fetch strips a fragment before sending; node:http sends the target as written, as the fuzz did.
  const sendRaw = (method: string, path: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: server.port, method, path, headers: { authorization: 'Bearer vr_session_x' } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (text: string) => (body += text)).on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject).end();
  });

  it('answers a target whose path Express would read differently (a #fragment) as 404 not_found, as the data plane does', async () => {
    for (const path of ['/v1/auth/whoami', '/v1/keys', '/healthz', '/v1/openapi.json', '/console/login']) {
      expect((await sendRaw('GET', path)).status, path).not.toBe(404);
      expect((await sendRaw('GET', `${path}?a=1#x`)).status, `${path}?a=1#x`).not.toBe(404);
      // The absolute form is routed by its path.
      expect((await sendRaw('GET', `http://127.0.0.1:${server.port}${path}`)).status, `absolute ${path}`).not.toBe(404);
      for (const variant of [`${path}#fragment`, `${path}#x?a=1`, `${path}#`]) {
        const response = await sendRaw('GET', variant);
        expect(response.status, variant).toBe(404);
        expect(JSON.parse(response.body)).toEqual({ error: 'not_found', details: 'no such endpoint' });
      }
    }
  });
});

describe('methods a path does not serve', () => {
  const base = () => `http://127.0.0.1:${server.port}`;
  /** The data plane's own paths: this app does not serve them, so they are unknown here (404). */
  const DATA_PLANE_PATHS = ['/v1/audio/speech', '/v1/credits', '/v1/credits/activity', '/v1/providers', '/v1/voices', '/v1/status'];

  it('lists in Allow exactly the methods the OpenAPI document gives each path it serves', async () => {
    const { paths } = buildOpenApiDocument({ version: 'test' }) as { paths: Record<string, Record<string, unknown>> };
    const unknownHere: string[] = [];
    for (const [template, operations] of Object.entries(paths)) {
      const response = await fetch(`${base()}${template.replace(/\{\w+\}/g, 'x1')}`, { method: 'OPTIONS' });
      if (response.status === 404) {
        unknownHere.push(template);
        continue;
      }
      expect(response.status, template).toBe(200);
      expect(response.headers.get('content-length'), template).toBe('0');
      const methods = Object.keys(operations).map((method) => method.toUpperCase());
      const expected = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((method) =>
        methods.includes(method) || method === 'OPTIONS' || (method === 'HEAD' && methods.includes('GET')));
      expect(response.headers.get('allow'), template).toBe(expected.join(', '));
    }
    expect(unknownHere.sort()).toEqual([...DATA_PLANE_PATHS].sort());
  });

  it('answers any other method 405 method_not_allowed with Allow, before reading the body', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/v1/keys', 'GET, HEAD, POST, OPTIONS'],
      ['GET', '/v1/keys/x1', 'PATCH, DELETE, OPTIONS'],
      ['DELETE', '/v1/auth/device-code', 'POST, OPTIONS'],
      ['POST', '/readyz', 'GET, HEAD, OPTIONS'],
      ['PATCH', '/v1/openapi.json', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const response = await fetch(`${base()}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{"broken":' });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(await response.json()).toEqual({ error: 'method_not_allowed', details: `${method} is not served here; allowed: ${allow}` });
    }
    const head = await fetch(`${base()}/v1/keys/x1`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('PATCH, DELETE, OPTIONS');
  });

  it('serves HEAD wherever GET is served, and leaves unknown paths and the console as they were', async () => {
    expect((await fetch(`${base()}/v1/openapi.json`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${base()}/v1/auth/whoami`, { method: 'HEAD' })).status).toBe(401);
    for (const [method, path] of [['PUT', '/v1/nothing'], ['OPTIONS', '/v1/nothing'], ['PUT', '/v1/keys/x1/y'], ['PUT', '/v1/credits']]) {
      const response = await fetch(`${base()}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', details: 'no such endpoint' });
    }
    expect((await fetch(`${base()}/console/login`, { method: 'PUT' })).headers.get('allow')).toBeNull();
  });
});
