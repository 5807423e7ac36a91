// HEAD, OPTIONS and other methods on the data plane's own paths, on each server: answered here, never
// forwarded. Before, `HEAD /readyz` on a data plane reported the control plane's readiness and
// `HEAD /v1/credits` was the control plane's 404.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@voice-router/contracts';
import { createApiKey, createUser, openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry, type ProviderRegistry } from '@voice-router/providers';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane, type DataPlane } from '../data-plane.js';
import { testedServers } from '../server/tested-servers.test-support.js';

let database: Database;
let registry: ProviderRegistry;
let controlPlane: http.Server;
let authorization: string;
const forwarded: string[] = [];
const dataPlanes = new Map<string, { dataPlane: DataPlane; lines: string[] }>();

beforeAll(async () => {
  controlPlane = http.createServer((request, response) => {
    forwarded.push(`${request.method} ${request.url}`);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ from: 'control plane' }));
  });
  await new Promise<void>((resolve) => controlPlane.listen(0, '127.0.0.1', resolve));
  database = await openDatabase({ kind: 'pglite-memory' });
  registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []);
  const user = await createUser(database.prisma, { email: 'methods@example.com' });
  authorization = `Bearer ${(await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'test' })).keyValue}`;
  for (const server of testedServers()) {
    const lines: string[] = [];
    const dataPlane = await startDataPlane({
      host: '127.0.0.1', port: 0, sql: database.sql, registry, settler: createInProcessSettler({ sql: database.sql }), server,
      logger: createLogger({ name: 'test', level: 'info', write: (line) => lines.push(line) }), authCacheTtlMs: 0, streamMaxDurationMs: 10_000,
      attemptTimeoutMs: 1000, shutdownGraceMs: 0, controlPlaneUrl: `http://127.0.0.1:${(controlPlane.address() as AddressInfo).port}`,
    });
    dataPlanes.set(server, { dataPlane, lines });
  }
});

afterAll(async () => {
  for (const { dataPlane } of dataPlanes.values()) await dataPlane.close();
  await registry?.close();
  await database?.close();
  controlPlane?.closeAllConnections();
  await new Promise((resolve) => controlPlane?.close(resolve));
});

interface RawAnswer {
  head: string;
  status: number;
  headers: Map<string, string>;
}

/**
 * Sends requests one after another on one connection and splits the answers by their framing: a HEAD
 * answer ends with its headers whatever Content-Length says. A stray body would show up as the start of
 * the next answer, so each answer must begin with a status line.
 */
async function onOneConnection(port: number, requests: Array<{ method: string; path: string; auth?: boolean }>): Promise<RawAnswer[]> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const waitFor = async (predicate: () => boolean) => {
    for (let round = 0; round < 200 && !predicate(); round += 1) await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, 10); });
    expect(predicate()).toBe(true);
  };
  const answers: RawAnswer[] = [];
  try {
    for (const request of requests) {
      socket.write(`${request.method} ${request.path} HTTP/1.1\r\nHost: x\r\n${request.auth ? `Authorization: ${authorization}\r\n` : ''}\r\n`);
      await waitFor(() => buffered.includes('\r\n\r\n'));
      const end = buffered.indexOf('\r\n\r\n');
      const head = buffered.subarray(0, end).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 \d{3} /);
      const headers = new Map(head.split('\r\n').slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const));
      const status = Number(head.slice(9, 12));
      const length = request.method === 'HEAD' || status === 204 ? 0 : Number(headers.get('content-length') ?? 0);
      await waitFor(() => buffered.length >= end + 4 + length);
      buffered = buffered.subarray(end + 4 + length);
      answers.push({ head, status, headers });
      // Whatever the server still sends now belongs to no request.
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(buffered.toString('latin1')).toBe('');
    }
  } finally {
    socket.destroy();
  }
  return answers;
}

describe.each(testedServers())('methods on the data plane\'s own paths (%s server)', (server) => {
  const port = () => dataPlanes.get(server)!.dataPlane.port;

  it('answers HEAD on its GET paths itself, without a body, and keeps the connection usable', async () => {
    const before = forwarded.length;
    const answers = await onOneConnection(port(), [
      { method: 'HEAD', path: '/healthz' },
      { method: 'HEAD', path: '/readyz' },
      { method: 'HEAD', path: '/v1/credits', auth: true },
      { method: 'HEAD', path: '/v1/credits' },
      { method: 'HEAD', path: '/v1/voices?language=en', auth: true },
      { method: 'GET', path: '/healthz' },
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 200, 200]);
    expect(answers[2]!.headers.get('content-type')).toBe('application/json');
    // node:http keeps the GET's length; uWS says 0 (see server/bodiless-head.ts).
    const getLength = Number(answers[5]!.headers.get('content-length'));
    expect(Number(answers[0]!.headers.get('content-length'))).toBe(server === 'node' ? getLength : 0);
    expect(forwarded.length).toBe(before);
    const logged = dataPlanes.get(server)!.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
    expect(logged).toContainEqual(expect.objectContaining({ method: 'HEAD', path: '/v1/credits', status: 200 }));
  });

  it('answers other methods 405 method_not_allowed with Allow, and OPTIONS 200 with Allow and no content', async () => {
    const before = forwarded.length;
    const cases: Array<[string, string, string]> = [
      ['PUT', '/v1/credits', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/v1/credits/activity', 'GET, HEAD, OPTIONS'],
      ['POST', '/v1/voices', 'GET, HEAD, OPTIONS'],
      ['GET', '/v1/audio/speech', 'POST, OPTIONS'],
      ['HEAD', '/v1/audio/speech', 'POST, OPTIONS'],
      ['PATCH', '/readyz', 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await fetch(`http://127.0.0.1:${port()}${path}`, { method, headers: { authorization } });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      if (method !== 'HEAD') expect(await response.json()).toEqual({ error: 'method_not_allowed', details: `${method} is not served here; allowed: ${allow}` });
    }
    const options = await fetch(`http://127.0.0.1:${port()}/v1/status`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.get('content-length')).toBe('0');
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await options.text()).toBe('');
    expect(forwarded.length).toBe(before);
  });

  it('lists in Allow exactly the methods the OpenAPI document gives each of its paths', async () => {
    const { paths } = buildOpenApiDocument({ version: 'test' }) as { paths: Record<string, Record<string, unknown>> };
    const own = ['/v1/audio/speech', '/v1/credits', '/v1/credits/activity', '/v1/providers', '/v1/voices', '/v1/status'];
    for (const path of own) {
      const methods = Object.keys(paths[path]!).map((method) => method.toUpperCase());
      const expected = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((method) =>
        methods.includes(method) || method === 'OPTIONS' || (method === 'HEAD' && methods.includes('GET')));
      const response = await fetch(`http://127.0.0.1:${port()}${path}`, { method: 'OPTIONS' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('allow'), path).toBe(expected.join(', '));
    }
  });

  it('still forwards every method on paths it does not serve, HEAD included', async () => {
    const answers = await onOneConnection(port(), [{ method: 'HEAD', path: '/v1/keys' }, { method: 'GET', path: '/healthz' }]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(forwarded.at(-1)).toBe('HEAD /v1/keys');
    const response = await fetch(`http://127.0.0.1:${port()}/v1/keys`, { method: 'PUT' });
    expect(await response.json()).toEqual({ from: 'control plane' });
    expect(forwarded.at(-1)).toBe('PUT /v1/keys');
  });
});
