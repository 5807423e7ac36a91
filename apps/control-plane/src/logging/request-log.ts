// One JSON line per control-plane request when its response ends, in the data plane's shape: method,
// path (never the query string), status, latency, body bytes, and the request's X-Request-Id, which
// every response carries. A caller's (or load balancer's) own X-Request-Id is kept when it is a plain
// token, so one id follows the request through nginx and the data plane's proxy; otherwise one is made.
// Health probes are not logged. With LOG_LEVEL above info nothing is installed but the id.
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '@voice-router/service-kit';

/** What a request id from outside may be: a short token with no spaces or separators to forge log fields with. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz']);

export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** Counts the body bytes handed to the socket (a streamed or chunked body has no Content-Length). */
function countBytes(response: Response): () => number {
  let bytes = 0;
  const { write, end } = response;
  const add = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  response.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response['write'];
  response.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') add(chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response['end'];
  return () => bytes;
}

export function logRequests(logger: Logger): RequestHandler {
  const enabled = logger.isEnabled('info');
  return (request, response, next) => {
    const requestId = requestIdFrom(request.headers['x-request-id']);
    response.setHeader('X-Request-Id', requestId);
    if (!enabled || UNLOGGED_PATHS.has(request.path)) return next();
    const started = performance.now();
    const bytes = countBytes(response);
    const method = request.method;
    const path = request.originalUrl.split('?', 1)[0];
    let done = false;
    const finish = (ending?: 'client_closed') => {
      if (done) return;
      done = true;
      logger.info('request', {
        method,
        path,
        status: ending ? (response.headersSent ? response.statusCode : 0) : response.statusCode,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        bytes: bytes(),
        requestId,
        ending,
      });
    };
    response.once('finish', () => finish());
    // 'close' without 'finish': the client left before the response was complete.
    response.once('close', () => finish('client_closed'));
    next();
  };
}
