// What the data plane forwards to the control plane, and what it refuses itself: a request target with
// raw non-ASCII bytes (found by the fuzz) is a 400, not a 500 "control plane unavailable".
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry, type ProviderRegistry } from '@voice-router/providers';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane, type DataPlane } from '../data-plane.js';
import { testedServers } from '../server/tested-servers.test-support.js';

let database: Database;
let registry: ProviderRegistry;
let dataPlane: DataPlane;
const dataPlanes = new Map<string, DataPlane>();
let controlPlane: http.Server;
const forwarded: string[] = [];
const logLines: string[] = [];
/** Requests to /slow/… wait here until a test releases them. */
const held: Array<() => void> = [];

beforeAll(async () => {
  controlPlane = http.createServer((request, response) => {
    forwarded.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    if (request.url === '/echo') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.end(JSON.stringify({ expect: request.headers.expect ?? 'none', body: Buffer.concat(chunks).toString() })));
      return;
    }
    response.setHeader('x-request-id', 'cp-request-1');
    const answer = () => response.end(request.url === '/slow/large' ? JSON.stringify({ pad: 'x'.repeat(1_000_000) }) : JSON.stringify({ path: request.url }));
    if (request.url?.startsWith('/slow/')) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => controlPlane.listen(0, '127.0.0.1', resolve));
  database = await openDatabase({ kind: 'pglite-memory' });
  registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []);
  for (const server of testedServers()) {
    dataPlanes.set(server, await startDataPlane({
      host: '127.0.0.1', port: 0, sql: database.sql, registry, settler: createInProcessSettler({ sql: database.sql }), server,
      logger: createLogger({ name: 'test', level: 'info', write: (line) => logLines.push(line) }), authCacheTtlMs: 0, streamMaxDurationMs: 10_000, attemptTimeoutMs: 1000, shutdownGraceMs: 0,
      controlPlaneUrl: `http://127.0.0.1:${(controlPlane.address() as AddressInfo).port}`,
    }));
  }
  dataPlane = dataPlanes.get(testedServers()[0]!)!;
});

afterAll(async () => {
  for (const started of dataPlanes.values()) await started.close();
  await registry?.close();
  await database?.close();
  controlPlane?.closeAllConnections();
  await new Promise((resolve) => controlPlane?.close(resolve));
});

/** Sends raw bytes (fetch and node:http would encode or refuse them) and returns the status line and body. */
function rawRequest(target: Buffer, method = 'GET', port = dataPlane.port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const answer = () => Buffer.concat(chunks).toString('latin1');
    // Done once the whole body named by Content-Length is in (the server may keep the socket open).
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = answer();
      const headerEnd = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (headerEnd >= 0 && length !== undefined && text.length >= headerEnd + 4 + Number(length)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(answer()));
    socket.on('error', reject);
    socket.write(Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
  });
}

describe('the control-plane proxy', () => {
  it('forwards paths it does not serve, query included', async () => {
    const response = await fetch(`http://127.0.0.1:${dataPlane.port}/console/x%C3%A9?next=%2Fa`);
    expect(await response.json()).toEqual({ path: '/console/x%C3%A9?next=%2Fa' });
  });

  it('answers a target with raw non-ASCII bytes with 400 invalid_body, forwarding nothing', async () => {
    const before = forwarded.length;
    for (const target of [Buffer.from('/console/invitations/\xe9', 'latin1'), Buffer.from('/v1/x\u00e9', 'utf8')]) {
      const answer = await rawRequest(target);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: 'invalid_body' });
    }
    expect(forwarded.length).toBe(before);
  });

  it('answers HEAD with such a target without a body (a body would corrupt the connection)', async () => {
    const answer = await rawRequest(Buffer.from('/console/\xe9', 'latin1'), 'HEAD');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('');
  });
});

describe('the request line of a forwarded request', () => {
  it('carries the control plane\'s X-Request-Id, so the two lines join', async () => {
    const response = await fetch(`http://127.0.0.1:${dataPlane.port}/v1/keys?limit=1`);
    expect(response.headers.get('x-request-id')).toBe('cp-request-1');
    await response.arrayBuffer();
    for (let round = 0; round < 100 && !logLines.some((line) => line.includes('"/v1/keys"')); round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const line = logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.msg === 'request' && entry.path === '/v1/keys');
    expect(line).toMatchObject({ method: 'GET', status: 200, requestId: 'cp-request-1' });
  });
});

/** Resolves once the fake control plane holds `count` requests. */
async function heldRequests(count: number): Promise<void> {
  for (let round = 0; round < 500 && held.length < count; round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(held.length).toBe(count);
}

/** Answers every held request, and waits a little for the data plane to handle those answers. */
async function releaseHeld(): Promise<void> {
  for (const answer of held.splice(0)) answer();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function stillServes(port: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/keys`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ path: '/v1/keys' });
}

describe.each(testedServers())('a forwarded answer (%s)', (server) => {
  it('carries one Date header, the data plane\'s own', async () => {
    const answer = await rawRequest(Buffer.from('/v1/keys'), 'GET', dataPlanes.get(server)!.port);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.slice(0, answer.indexOf('\r\n\r\n')).match(/^date:/gim)).toHaveLength(1);
  });
});

describe.each(testedServers())('a forwarded request with Expect: 100-continue (%s)', (server) => {
  // undici refuses to send Expect, so forwarding it made the request a 500 "control plane unavailable".
  it('is answered 100 Continue by the data plane and forwarded, body and all, without Expect', async () => {
    const socket = net.connect(dataPlanes.get(server)!.port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('data', (chunk: Buffer) => {
      const continued = text.length === 0;
      text += chunk.toString('latin1');
      // The body goes only once the server asked for it, as a client that sends Expect does.
      if (continued && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write('{"name":"ci"}');
    });
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    // The answer is streamed (chunked); its one small chunk holds the control plane's JSON whole.
    expect(text).toContain(JSON.stringify({ expect: 'none', body: '{"name":"ci"}' }));
  });
});

describe.each(testedServers())('a client that leaves a forwarded request (%s)', (server) => {
  // Found by hand: the data plane dropped the control plane's unread answer with destroy(), undici then
  // emitted an 'error' event nobody listened to, and the process ended (embedded: the whole service).
  it('before the control plane answers: the answer is dropped and the process serves on', async () => {
    const port = dataPlanes.get(server)!.port;
    for (const path of ['/slow/small', '/slow/large']) {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      await heldRequests(1);
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await releaseHeld();
      await stillServes(port);
    }
  });

  it('pipelined behind a forwarded request: the process serves on', async () => {
    const port = dataPlanes.get(server)!.port;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /slow/first HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/keys HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await heldRequests(1);
    await releaseHeld();
    await closed;
    // uWS closes a connection that sends a request before the previous one is answered; node:http answers
    // both, in order.
    const text = Buffer.concat(received).toString('latin1');
    if (server === 'node') expect(text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    await stillServes(port);
  });
});
