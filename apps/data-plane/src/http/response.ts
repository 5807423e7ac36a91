// Writing responses from uWS handlers. After any await a handler must check `aborted` and cork its
// writes; these helpers do both so no route can forget.
import { ERROR_STATUS, errorBody, type ErrorCode } from '@voice-router/contracts';
import { ROUTE_METRICS, type CountedResponse } from '../metrics/count-routes.js';
import type { RouteMetrics } from '../metrics/data-plane-metrics.js';
import type { HttpResponse } from '../uws.js';
import type { AbortSignalLike } from '@voice-router/providers';

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK', 400: '400 Bad Request', 401: '401 Unauthorized', 402: '402 Payment Required', 403: '403 Forbidden',
  404: '404 Not Found', 405: '405 Method Not Allowed', 410: '410 Gone', 413: '413 Payload Too Large', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 502: '502 Bad Gateway', 503: '503 Service Unavailable', 504: '504 Gateway Timeout',
};

export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? `${status} Status`;
}

/** Per-request state every route shares. */
export interface ResponseState {
  aborted: boolean;
  responded: boolean;
  /** Set while a writer waits for backpressure to clear; an abort must release it too. */
  wakeWriter?: () => void;
  /** The route's request counter (metrics on), and the provider the request named once known. */
  route?: RouteMetrics;
  provider: string;
}

/** Every response's status passes here once: it marks the request answered and counts it. */
export function respond(state: ResponseState, status: number): void {
  state.responded = true;
  state.route?.count(status, state.provider);
}

/** 499 (nginx's convention): the client left before any response; counted once. */
export function countUnanswered(state: ResponseState): void {
  if (state.responded) return;
  state.responded = true;
  state.route?.count(499, state.provider);
}

/** Where trackAbort leaves a response's state, so the route guard can finish a failed request. */
const RESPONSE_STATE = Symbol('response state');
type StatefulResponse = HttpResponse & { [RESPONSE_STATE]?: ResponseState };

/** Registers a route's own state object (one that handles onAborted itself) with the route guard. */
export function attachState(res: HttpResponse, state: ResponseState): void {
  (res as StatefulResponse)[RESPONSE_STATE] = state;
}

export function trackAbort(res: HttpResponse, onAbort?: () => void): ResponseState {
  const state: ResponseState = { aborted: false, responded: false, route: (res as CountedResponse)[ROUTE_METRICS], provider: '' };
  (res as StatefulResponse)[RESPONSE_STATE] = state;
  res.onAborted(() => {
    state.aborted = true;
    state.wakeWriter?.();
    onAbort?.();
  });
  return state;
}

export function sendJson(res: HttpResponse, state: ResponseState, status: number, body: unknown, closeConnection = false): void {
  sendRawJson(res, state, status, JSON.stringify(body), closeConnection);
}

export function sendRawJson(res: HttpResponse, state: ResponseState, status: number, json: string, closeConnection = false): void {
  if (state.aborted || state.responded) return;
  respond(state, status);
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json').end(json, closeConnection);
  });
}

export function sendError(
  res: HttpResponse, state: ResponseState, code: ErrorCode, details?: string,
  options: { status?: number; closeConnection?: boolean; detailCode?: string } = {},
): void {
  sendJson(res, state, options.status ?? ERROR_STATUS[code], errorBody(code, details, options.detailCode), options.closeConnection);
}

/**
 * Resolves when the socket can take more data (backpressure), at once if the client is gone, and when
 * `signal` aborts (the router's own deadline or a shutdown must wake a writer the client left blocked).
 */
export function waitForWritable(res: HttpResponse, state: ResponseState, signal?: AbortSignalLike): Promise<void> {
  if (state.aborted || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      state.wakeWriter = undefined;
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    state.wakeWriter = wake;
    signal?.addEventListener('abort', wake, { once: true });
    res.onWritable(() => {
      wake();
      return true;
    });
  });
}

/**
 * Finishes a request whose handler failed with an uncaught error: 500 internal_error if nothing was
 * sent yet, else the connection is closed so the client sees a cut transfer, never a complete-looking
 * one. A response that already ended or whose client left is left alone (uWS throws on any access
 * then; that is caught here).
 */
export function failRequest(res: HttpResponse): void {
  const state = (res as StatefulResponse)[RESPONSE_STATE];
  if (state?.aborted) return;
  try {
    if (!state?.responded) sendError(res, state ?? { aborted: false, responded: false, provider: '' }, 'internal_error');
    else res.close();
  } catch {
    // The response had already ended: nothing left to answer.
  }
}
