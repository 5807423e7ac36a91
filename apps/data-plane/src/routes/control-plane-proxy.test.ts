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

let database: Database;
let registry: ProviderRegistry;
let dataPlane: DataPlane;
let controlPlane: http.Server;
const forwarded: string[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  controlPlane = http.createServer((request, response) => {
    forwarded.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-request-id', 'cp-request-1');
    response.end(JSON.stringify({ path: request.url }));
  });
  await new Promise<void>((resolve) => controlPlane.listen(0, '127.0.0.1', resolve));
  database = await openDatabase({ kind: 'pglite-memory' });
  registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []);
  dataPlane = await startDataPlane({
    host: '127.0.0.1', port: 0, sql: database.sql, registry, settler: createInProcessSettler({ sql: database.sql }),
    logger: createLogger({ name: 'test', level: 'info', write: (line) => logLines.push(line) }), authCacheTtlMs: 0, streamMaxDurationMs: 10_000, attemptTimeoutMs: 1000, shutdownGraceMs: 0,
    controlPlaneUrl: `http://127.0.0.1:${(controlPlane.address() as AddressInfo).port}`,
  });
});

afterAll(async () => {
  await dataPlane?.close();
  await registry?.close();
  await database?.close();
  controlPlane?.closeAllConnections();
  await new Promise((resolve) => controlPlane?.close(resolve));
});

/** Sends raw bytes (fetch and node:http would encode or refuse them) and returns the status line and body. */
function rawRequest(target: Buffer, method = 'GET'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(dataPlane.port, '127.0.0.1');
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
