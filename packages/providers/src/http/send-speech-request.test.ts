import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY_LIMIT_BYTES, sendSpeechRequest, UPSTREAM_READ_AHEAD_BYTES } from './send-speech-request.js';

const BODY_BYTES = 1024 * 1024;
const WRITE_BYTES = 8 * 1024;

/** An upstream that answers with 1 MiB of audio written as fast as the socket takes it, or with a long error text. */
let server: http.Server;
let origin: string;
/** Upstream connections closed so far (a response read to its end leaves its connection open for reuse). */
let closedConnections = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const error = request.url === '/error';
      response.writeHead(error ? 429 : 200, { 'content-type': error ? 'text/plain' : 'audio/mpeg', 'retry-after': '3' });
      let written = 0;
      const piece = Buffer.alloc(WRITE_BYTES, error ? 'x' : 1);
      const write = () => {
        while (written < BODY_BYTES) {
          written += WRITE_BYTES;
          if (!response.write(piece)) return void response.once('drain', write);
        }
        response.end();
      };
      write();
    });
  });
  server.on('connection', (socket) => socket.once('close', () => (closedConnections += 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A real pool, seen through an interceptor that counts the body bytes undici hands to the handler. */
function observedPool() {
  const pool = new Pool(origin, { connections: 2 });
  const seen = { delivered: 0, controller: undefined as Dispatcher.DispatchController | undefined, rawHeadersAtStart: undefined as unknown };
  const dispatcher = pool.compose((dispatch) => (options, handler) => dispatch(options, {
    onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
    onResponseStart: (controller, status, headers, message) => {
      seen.controller = controller;
      seen.rawHeadersAtStart = controller.rawHeaders;
      handler.onResponseStart?.(controller, status, headers, message);
    },
    onResponseData: (controller, chunk) => {
      seen.delivered += chunk.byteLength;
      handler.onResponseData?.(controller, chunk);
    },
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  } satisfies Dispatcher.DispatchHandler));
  return { pool, dispatcher, seen };
}

const send = (dispatcher: Dispatcher, path: string, signal = new AbortController().signal) =>
  sendSpeechRequest(dispatcher, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' }, {
    provider: 'openai', signal, headersTimeoutMs: 5_000, bodyIdleTimeoutMs: 5_000, classifyError: () => ({}),
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sendSpeechRequest', () => {
  it('reads at most a bounded amount ahead of a consumer that stops, then streams the rest as it reads', async () => {
    const { pool, dispatcher, seen } = observedPool();
    try {
      const closedBefore = closedConnections;
      const audio = await send(dispatcher, '/audio');
      const first = await audio.next();
      expect(first.done).toBe(false);
      await pause(200);
      // undici's own default is 64 KiB per response: a thousand slow listeners held ~64 MiB of read-ahead.
      // What is delivered beyond the bound is at most the rest of the socket read that crossed it.
      expect(UPSTREAM_READ_AHEAD_BYTES).toBeLessThanOrEqual(16 * 1024);
      expect(seen.delivered).toBeLessThan(UPSTREAM_READ_AHEAD_BYTES + 128 * 1024);
      let received = (first.value as Uint8Array).byteLength;
      for (;;) {
        const next = await audio.next();
        if (next.done) break;
        received += next.value.byteLength;
      }
      expect(received).toBe(BODY_BYTES);
      expect(audio.exhausted()).toBe(true);
      // Read to its end, the connection stays open for the next request.
      await pause(50);
      expect(closedConnections).toBe(closedBefore);
    } finally {
      await pool.close();
    }
  });

  it('lets go of the raw response headers once started: they are views into a socket read the stream would keep alive', async () => {
    const { pool, dispatcher, seen } = observedPool();
    const audio = await send(dispatcher, '/audio');
    try {
      // undici hands the raw headers over on the controller, which lives as long as the response.
      expect(Array.isArray(seen.rawHeadersAtStart)).toBe(true);
      expect(seen.controller!.rawHeaders).toBeNull();
    } finally {
      await audio.return!();
      await pool.close();
    }
  });

  it('aborting the signal mid-body ends the iteration with its reason and closes the upstream connection', async () => {
    const { pool, dispatcher } = observedPool();
    try {
      const controller = new AbortController();
      const audio = await send(dispatcher, '/audio', controller.signal);
      await audio.next();
      const reason = new Error('client went away');
      const closedBefore = closedConnections;
      controller.abort(reason);
      await expect(audio.next()).rejects.toBe(reason);
      await pause(100);
      expect(closedConnections - closedBefore).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('leaving early (return) closes the upstream connection; an abort before the call fails it with the reason', async () => {
    const { pool, dispatcher } = observedPool();
    try {
      const audio = await send(dispatcher, '/audio');
      await audio.next();
      const closedBefore = closedConnections;
      await audio.return!();
      expect(await audio.next()).toEqual({ done: true, value: undefined });
      await pause(100);
      expect(closedConnections - closedBefore).toBe(1);

      const reason = new Error('already gone');
      await expect(send(dispatcher, '/audio', AbortSignal.abort(reason))).rejects.toBe(reason);
    } finally {
      await pool.close();
    }
  });

  it('reads only the first few KB of an error body before closing the connection', async () => {
    const { pool, dispatcher, seen } = observedPool();
    try {
      const closedBefore = closedConnections;
      const error = await send(dispatcher, '/error').then(() => undefined, (caught: unknown) => caught);
      expect(error).toMatchObject({ statusCode: 429, category: 'upstream_rate_limited', retryAfterMs: 3000 });
      expect(seen.delivered).toBeGreaterThanOrEqual(ERROR_BODY_LIMIT_BYTES);
      expect(seen.delivered).toBeLessThan(UPSTREAM_READ_AHEAD_BYTES + 128 * 1024);
      await pause(100);
      expect(closedConnections - closedBefore).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
