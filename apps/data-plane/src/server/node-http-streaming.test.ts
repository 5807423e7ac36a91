// The node:http adapter under the streaming contracts the speech route and the proxy rely on:
// backpressure that bounds memory with a slow reader, onAborted on a client that leaves mid-stream,
// and request bodies through onData with the data plane's own body limit.
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody } from '../http/request-body.js';
import { sendError, sendJson, trackAbort } from '../http/response.js';
import type { HttpResponse } from '../uws.js';
import { WRITE_HIGH_WATER_MARK } from './node-http-app.js';
import type { NodeHttpResponse } from './node-http-response.js';
import { parseResponse, rawExchange, startApp, type RunningApp } from './node-http.test-support.js';

const running: RunningApp[] = [];
afterEach(() => {
  for (const app of running.splice(0)) app.close();
});

const CHUNK_BYTES = 64 * 1024;

/** Chunk `index` of a deterministic stream, so the client can check every byte and their order. */
function chunkAt(index: number): Buffer {
  return Buffer.alloc(CHUNK_BYTES, crypto.createHash('sha256').update(String(index)).digest());
}

interface StreamProbe {
  response?: HttpResponse;
  writes: number;
  backpressured: number;
  maxBuffered: number;
  aborted: boolean;
}

const freshProbe = (): StreamProbe => ({ writes: 0, backpressured: 0, maxBuffered: 0, aborted: false });

/** Streams `chunks` chunks the way the speech route does: write until false, then wait for onWritable. */
function streamingRoute(chunks: number, probe: StreamProbe) {
  return (res: HttpResponse) => {
    probe.response = res;
    res.onAborted(() => {
      probe.aborted = true;
    });
    res.writeStatus('200 OK').writeHeader('content-type', 'application/octet-stream');
    let next = 0;
    const pump = (): boolean => {
      while (next < chunks) {
        let writable = true;
        res.cork(() => {
          writable = res.write(chunkAt(next));
        });
        next += 1;
        probe.writes += 1;
        probe.maxBuffered = Math.max(probe.maxBuffered, (res as NodeHttpResponse).getBufferedAmount());
        if (!writable) {
          probe.backpressured += 1;
          res.onWritable(pump);
          return true;
        }
      }
      res.end();
      return true;
    };
    pump();
  };
}

describe('the node:http adapter: backpressure', () => {
  it('keeps a slow reader\'s backlog under one high-water mark plus a chunk, and delivers every byte in order', async () => {
    const chunks = 128; // 8 MiB
    const probe = freshProbe();
    const app = await startApp((routes) => routes.get('/stream', streamingRoute(chunks, probe)));
    running.push(app);
    const expected = crypto.createHash('sha256');
    for (let index = 0; index < chunks; index += 1) expected.update(chunkAt(index));

    const received = crypto.createHash('sha256');
    let bytes = 0;
    await new Promise<void>((resolve, reject) => {
      http.get(`http://127.0.0.1:${app.port}/stream`, (response) => {
        let sincePause = 0;
        response.on('data', (chunk: Buffer) => {
          received.update(chunk);
          bytes += chunk.length;
          sincePause += chunk.length;
          // A slow reader: stop for a while after every 256 KiB.
          if (sincePause >= 256 * 1024) {
            sincePause = 0;
            response.pause();
            setTimeout(() => response.resume(), 15);
          }
        });
        response.on('end', resolve);
        response.on('error', reject);
      }).on('error', reject);
    });
    expect(bytes).toBe(chunks * CHUNK_BYTES);
    expect(received.digest('hex')).toBe(expected.digest('hex'));
    expect(probe.backpressured).toBeGreaterThan(0);
    expect(probe.maxBuffered).toBeLessThanOrEqual(WRITE_HIGH_WATER_MARK + CHUNK_BYTES + 64);
  });

  it('fires onAborted when the client leaves mid-stream, and refuses writes afterwards', async () => {
    const probe = freshProbe();
    const app = await startApp((routes) => routes.get('/endless', streamingRoute(Number.MAX_SAFE_INTEGER, probe)));
    running.push(app);
    const socket = net.connect(app.port, '127.0.0.1');
    socket.write('GET /endless HTTP/1.1\r\nhost: x\r\n\r\n');
    let received = 0;
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 200_000) {
          socket.destroy();
          resolve();
        }
      });
    });
    for (let attempt = 0; attempt < 100 && !probe.aborted; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(probe.aborted).toBe(true);
    const writes = probe.writes;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(probe.writes).toBe(writes);
    expect(() => probe.response!.write('more')).toThrow(/after it ended or was aborted/);
    expect(probe.maxBuffered).toBeLessThanOrEqual(WRITE_HIGH_WATER_MARK + CHUNK_BYTES + 64);
  });
});

describe('the node:http adapter: request bodies', () => {
  const LIMIT = 1024;

  async function bodyApp(): Promise<{ port: number; chunks: Array<{ bytes: number; isLast: boolean }> }> {
    const chunks: Array<{ bytes: number; isLast: boolean }> = [];
    const app = await startApp((routes) => {
      routes.post('/chunks', (res) => {
        res.onAborted(() => undefined);
        const received: Buffer[] = [];
        res.onData((chunk, isLast) => {
          chunks.push({ bytes: chunk.byteLength, isLast });
          received.push(Buffer.from(chunk as Uint8Array));
          if (isLast) res.end(Buffer.concat(received));
        });
      });
      routes.post('/limited', (res, req) => {
        const state = trackAbort(res);
        readBody(res, req.getHeader('content-length'), LIMIT, () => state.aborted).then((result) => {
          if (result.ok) return sendJson(res, state, 200, { bytes: result.body.length, sha: crypto.createHash('sha256').update(result.body).digest('hex') });
          if (result.reason === 'too_large') sendError(res, state, 'invalid_body', 'body too large', { closeConnection: true });
        });
      });
    });
    running.push(app);
    return { port: app.port, chunks };
  }

  it('delivers a body in order with isLast exactly once, for declared lengths, chunked bodies and empty ones', async () => {
    const { port, chunks } = await bodyApp();
    const body = crypto.randomBytes(300_000);
    const response = await fetch(`http://127.0.0.1:${port}/chunks`, { method: 'POST', body });
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
    expect(chunks.filter((chunk) => chunk.isLast)).toHaveLength(1);
    expect(chunks.at(-1)!.isLast).toBe(true);

    chunks.length = 0;
    const chunked = await rawExchange(port, 'POST /chunks HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n');
    expect(parseResponse(chunked.text).body).toBe('hello world');
    expect(chunks.filter((chunk) => chunk.isLast)).toEqual([chunks.at(-1)]);

    chunks.length = 0;
    const empty = await rawExchange(port, 'POST /chunks HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n');
    expect(parseResponse(empty.text)).toMatchObject({ status: 200, body: '' });
    expect(chunks).toEqual([{ bytes: 0, isLast: true }]);
  });

  it('applies the body limit: a declared length over it is refused unread and the connection closed; a chunked body is cut off', async () => {
    const { port } = await bodyApp();
    const fits = crypto.randomBytes(LIMIT);
    const ok = await fetch(`http://127.0.0.1:${port}/limited`, { method: 'POST', body: fits });
    expect(await ok.json()).toEqual({ bytes: LIMIT, sha: crypto.createHash('sha256').update(fits).digest('hex') });

    const declared = await rawExchange(port, `POST /limited HTTP/1.1\r\nhost: x\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n{"partial":`);
    expect(parseResponse(declared.text)).toMatchObject({ status: 400, headers: { connection: 'close' } });
    expect(JSON.parse(parseResponse(declared.text).body)).toMatchObject({ error: 'invalid_body' });
    expect(declared.closedByServer).toBe(true);

    const piece = `${(LIMIT / 2).toString(16)}\r\n${'x'.repeat(LIMIT / 2)}\r\n`;
    const chunked = await rawExchange(port, `POST /limited HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n${piece}${piece}${piece}`);
    expect(parseResponse(chunked.text).status).toBe(400);
    expect(chunked.closedByServer).toBe(true);
  });
});
