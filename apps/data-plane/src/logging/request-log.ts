// One JSON line per request when it ends: method, path, status, latency, body bytes sent (for speech:
// the audio delivered), and what the route added (X-Request-Id, provider, trace id). Installed at
// registration like the route guard: a logged request carries a record, and the server's response
// methods (patched once per response class, see instrumentPrototype) fill it in. With LOG_LEVEL above
// info (warn, error, silent) nothing is installed and requests pay nothing for it.
import type { Logger } from '@voice-router/service-kit';
import type { HttpRequest, HttpResponse, RouteHandler, TemplatedApp } from '../uws.js';

/** What a route knows about its request that the line should carry. */
export interface RequestAnnotations {
  /** The X-Request-Id the response carries (speech: also the reservation id). */
  requestId?: string;
  provider?: string;
  /** The caller's W3C trace id, when it sent a valid traceparent. */
  traceId?: string;
}

interface RequestRecord extends RequestAnnotations {
  logger: Logger;
  method: string;
  path: string;
  started: number;
  status: number;
  bytes: number;
  done: boolean;
}

const RECORD = Symbol('request log record');
/** uWS gives the method in lower case; the line has it in upper case, the same string every time. */
const METHOD_NAMES = new Map(['get', 'post', 'put', 'delete', 'head', 'options', 'patch'].map((method) => [method, method.toUpperCase()]));
type RecordedResponse = HttpResponse & { [RECORD]?: RequestRecord };

/** Adds to the request's line; does nothing when request logging is off. */
export function annotateRequest(res: HttpResponse, annotations: RequestAnnotations): void {
  const record = (res as RecordedResponse)[RECORD];
  if (record) Object.assign(record, annotations);
}

function byteLength(chunk: string | Uint8Array | undefined): number {
  if (chunk === undefined) return 0;
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
}

/** How the response ended when not by a normal end(): the client left, or the router cut it. */
type Ending = 'client_closed' | 'cut';

function finish(record: RequestRecord, ending?: Ending): void {
  if (record.done) return;
  record.done = true;
  record.logger.infoLine('request', {
    method: record.method,
    path: record.path,
    status: record.status,
    latencyMs: Math.round((performance.now() - record.started) * 100) / 100,
    bytes: record.bytes,
    requestId: record.requestId,
    provider: record.provider,
    traceId: record.traceId,
    ending,
  });
}

type Methods = Pick<HttpResponse, 'writeStatus' | 'write' | 'end' | 'close' | 'onAborted'>;

/**
 * Makes the response methods of a server's response class note what they send, once per class: each
 * logged request then costs one property store (its record) instead of five closures stored on the
 * native response object. A response without a record (routes that are not logged, or logging off in
 * another app of the process) only passes through.
 */
const INSTRUMENTED = Symbol('request log instrumented');
type Instrumentable = Methods & { [INSTRUMENTED]?: true };

function instrumentPrototype(prototype: Instrumentable): void {
  prototype[INSTRUMENTED] = true;
  const { writeStatus, write, end, close, onAborted } = prototype;
  prototype.writeStatus = function (this: RecordedResponse, status) {
    const record = this[RECORD];
    if (record !== undefined) record.status = Number.parseInt(status, 10);
    return writeStatus.call(this, status);
  };
  prototype.write = function (this: RecordedResponse, chunk) {
    const record = this[RECORD];
    if (record !== undefined) {
      // uWS answers 200 when a body is written without a status.
      if (record.status === 0) record.status = 200;
      record.bytes += byteLength(chunk);
    }
    return write.call(this, chunk);
  };
  prototype.end = function (this: RecordedResponse, body, closeConnection) {
    const record = this[RECORD];
    if (record === undefined) return end.call(this, body, closeConnection);
    if (record.status === 0) record.status = 200;
    record.bytes += byteLength(body);
    const result = end.call(this, body, closeConnection);
    finish(record);
    return result;
  };
  prototype.close = function (this: RecordedResponse) {
    const result = close.call(this);
    const record = this[RECORD];
    if (record !== undefined) finish(record, 'cut');
    return result;
  };
  prototype.onAborted = function (this: RecordedResponse, handler) {
    const record = this[RECORD];
    if (record === undefined) return onAborted.call(this, handler);
    return onAborted.call(this, () => {
      finish(record, 'client_closed');
      handler();
    });
  };
}

/**
 * The app as routes see it: every handler registered through it writes one line per request. Returns
 * `app` itself when info lines are not written, so the off switch (LOG_LEVEL=warn|error|silent) is free.
 */
export function logRequests(app: TemplatedApp, logger: Logger): TemplatedApp {
  if (!logger.isEnabled('info')) return app;
  const wrap = (pattern: string, handler: RouteHandler): RouteHandler => {
    // A route of one exact path is only ever called for that path: the line takes the pattern's own
    // string (its text is then written from the logger's member cache) instead of reading the URL.
    const exactPath = pattern.includes('*') || pattern.includes(':') ? undefined : pattern;
    return (res: HttpResponse, req: HttpRequest) => {
      // Inherited from the response class once it is instrumented.
      if ((res as Instrumentable)[INSTRUMENTED] !== true) instrumentPrototype(Object.getPrototypeOf(res) as Instrumentable);
      const method = req.getMethod();
      (res as RecordedResponse)[RECORD] = {
        logger, method: METHOD_NAMES.get(method) ?? method.toUpperCase(), path: exactPath ?? req.getUrl(), started: performance.now(),
        status: 0, bytes: 0, done: false, requestId: undefined, provider: undefined, traceId: undefined,
      };
      return handler(res, req);
    };
  };
  const logged: TemplatedApp = {
    get: (pattern, handler) => (app.get(pattern, wrap(pattern, handler)), logged),
    post: (pattern, handler) => (app.post(pattern, wrap(pattern, handler)), logged),
    any: (pattern, handler) => (app.any(pattern, wrap(pattern, handler)), logged),
    listen: (host, port, callback) => (app.listen(host, port, callback), logged),
  };
  return logged;
}
