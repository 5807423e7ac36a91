// Opt-in measurements for the benchmark (DATA_PLANE_METRICS=1): how much audio a response holds in
// user space while its client reads slowly, how many streams are open, how many requests were served.
// When the flag is off nothing here is installed, so the hot path pays nothing for it.
import { sendJson, trackAbort } from '../http/response.js';
import type { HttpRequest, HttpResponse, RouteHandler, TemplatedApp } from '../uws.js';

export interface StreamMetricsSnapshot {
  /** Requests that reached any instrumented route. */
  requests: number;
  /** Responses that ended (end/close) or were aborted by the client. */
  finished: number;
  /** Responses that have written body bytes and not yet finished. */
  activeStreams: number;
  /** Body bytes handed to uWS by every response. */
  bytesWritten: number;
  /** write() calls that uWS answered with backpressure. */
  backpressureEvents: number;
  /** The largest backlog any single response has held (see `backlog` below). */
  maxStreamBacklogBytes: number;
  /** The backlog summed over the responses open right now. */
  currentBacklogBytes: number;
}

export interface StreamMetrics {
  snapshot(): StreamMetricsSnapshot;
  /** Starts a fresh measurement window (the maxima and counters go back to zero; open streams stay counted). */
  reset(): void;
}

type Counters = StreamMetricsSnapshot;

const fresh = (activeStreams = 0, currentBacklogBytes = 0): Counters => ({
  requests: 0, finished: 0, activeStreams, bytesWritten: 0, backpressureEvents: 0, maxStreamBacklogBytes: 0, currentBacklogBytes,
});

export function createStreamMetrics(): StreamMetrics & { counters: Counters } {
  const metrics = {
    counters: fresh(),
    snapshot: () => ({ ...metrics.counters }),
    reset() {
      metrics.counters = fresh(metrics.counters.activeStreams, metrics.counters.currentBacklogBytes);
    },
  };
  return metrics;
}

function byteLength(chunk: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk);
  return chunk && typeof (chunk as ArrayBufferLike).byteLength === 'number' ? (chunk as ArrayBufferLike).byteLength : 0;
}

/**
 * Wraps one response's methods. `backlog` is the bytes handed to uWS since it last reported the socket
 * drained: write() returning true or onWritable firing resets it, write() returning false adds the chunk.
 * uWS (this build) exposes no buffered-amount for HTTP and getWriteOffset() stays 0 for write(), so this
 * is the closest honest bound: exact to within one cork buffer (16 KiB) that uWS may flush late.
 */
function instrumentResponse(res: HttpResponse, metrics: ReturnType<typeof createStreamMetrics>): HttpResponse {
  let streaming = false;
  let finished = false;
  let backlog = 0;
  const setBacklog = (next: number) => {
    metrics.counters.currentBacklogBytes += next - backlog;
    backlog = next;
    if (backlog > metrics.counters.maxStreamBacklogBytes) metrics.counters.maxStreamBacklogBytes = backlog;
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    metrics.counters.finished += 1;
    if (streaming) metrics.counters.activeStreams -= 1;
    setBacklog(0);
  };
  const { write, end, close, onWritable, onAborted } = res;
  metrics.counters.requests += 1;
  // uWS requires onAborted on every response that answers asynchronously; routes install their own, this one only counts.
  onAborted.call(res, finish);
  res.onAborted = (handler) => onAborted.call(res, () => {
    finish();
    handler();
  });
  res.write = (chunk) => {
    if (!streaming && !finished) {
      streaming = true;
      metrics.counters.activeStreams += 1;
    }
    const length = byteLength(chunk);
    metrics.counters.bytesWritten += length;
    const writable = write.call(res, chunk);
    if (writable) setBacklog(0);
    else {
      metrics.counters.backpressureEvents += 1;
      setBacklog(backlog + length);
    }
    return writable;
  };
  res.onWritable = (handler) => onWritable.call(res, (offset) => {
    setBacklog(0);
    return handler(offset);
  });
  res.end = (body, closeConnection) => {
    metrics.counters.bytesWritten += byteLength(body);
    finish();
    return end.call(res, body, closeConnection);
  };
  res.close = () => {
    finish();
    return close.call(res);
  };
  return res;
}

const ROUTE_METHODS = new Set(['get', 'post', 'any']);

/** The app as routes see it: every handler registered through it gets instrumented responses. */
export function instrumentApp(app: TemplatedApp, metrics: ReturnType<typeof createStreamMetrics>): TemplatedApp {
  return new Proxy(app, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !ROUTE_METHODS.has(property) || typeof value !== 'function') return value;
      return (pattern: string, handler: RouteHandler) => {
        (value as (pattern: string, handler: RouteHandler) => unknown).call(target, pattern, (res: HttpResponse, req: HttpRequest) =>
          handler(instrumentResponse(res, metrics), req));
        return receiver;
      };
    },
  });
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '0000:0000:0000:0000:0000:0000:0000:0001', '0000:0000:0000:0000:0000:ffff:7f00:0001']);

/** GET /internal/metrics, answered only to loopback peers (others get the usual 404). */
export function registerMetricsRoute(app: TemplatedApp, metrics: StreamMetrics): void {
  app.get('/internal/metrics', (res, req) => {
    const state = trackAbort(res);
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    if (!LOOPBACK.has(peer) && !peer.startsWith('127.')) {
      return sendJson(res, state, 404, { error: 'not_found', details: 'no such endpoint' });
    }
    const snapshot = metrics.snapshot();
    if (new URLSearchParams(req.getQuery() ?? '').get('reset') === '1') metrics.reset();
    sendJson(res, state, 200, snapshot);
  });
}
