// The double's HTTP server: Stripe's API under /v1 (bearer secret key, form-encoded bodies,
// idempotency keys, Stripe's error envelope) and the hosted pages a browser is sent to.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiRoute } from './api/api-route.js';
import { checkoutSessionRoutes } from './api/checkout-sessions.js';
import { customerRoutes } from './api/customers.js';
import { paymentIntentRoutes } from './api/payment-intents.js';
import { paymentMethodRoutes } from './api/payment-methods.js';
import { refundRoutes } from './api/refunds.js';
import { parseFormBody } from './form-body.js';
import { checkoutPage } from './hosted/checkout-page.js';
import type { HostedResult } from './hosted/html.js';
import { threeDSecurePage } from './hosted/three-d-secure-page.js';
import { newId } from './ids.js';
import { IdempotencyStore } from './idempotency.js';
import type { DoubleState } from './state.js';
import { StripeApiError, type StripeErrorBody } from './stripe-error.js';

const ROUTES: ApiRoute[] = [...customerRoutes, ...paymentMethodRoutes, ...paymentIntentRoutes, ...checkoutSessionRoutes, ...refundRoutes];
const MAX_BODY_BYTES = 1024 * 1024;

export interface RecordedApiRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
}

export interface ServerSettings {
  state: DoubleState;
  secretKey: string;
  apiVersion: string;
  latencyMs: () => number;
  requests: RecordedApiRequest[];
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: object, headers: Record<string, string>): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body, null, 2));
}

function sendHosted(response: ServerResponse, result: HostedResult): void {
  if (result.kind === 'redirect') {
    response.writeHead(303, { location: result.location, 'cache-control': 'no-store' });
    response.end();
    return;
  }
  response.writeHead(result.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(result.html);
}

function errorEnvelope(body: StripeErrorBody, requestId: string): { error: StripeErrorBody } {
  return { error: { ...body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } };
}

export function createDoubleServer(settings: ServerSettings) {
  const idempotency = new IdempotencyStore();
  const { state } = settings;

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL, text: string): Promise<void> {
    const requestId = newId('req', 14);
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const headers: Record<string, string> = { 'request-id': requestId, 'stripe-version': request.headers['stripe-version']?.toString() ?? settings.apiVersion };
    const idempotencyKey = method === 'POST' ? (request.headers['idempotency-key']?.toString() ?? null) : null;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const record = (status: number, replayed = false) => settings.requests.push({ method, path, idempotencyKey, status, replayed });

    const authorization = request.headers.authorization ?? '';
    const given = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (given !== settings.secretKey) {
      const message = given
        ? `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
        : 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').';
      record(401);
      return sendJson(response, 401, errorEnvelope({ type: 'invalid_request_error', message }, requestId), headers);
    }

    const route = ROUTES.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (!route) {
      record(404);
      return sendJson(response, 404, errorEnvelope({
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      }, requestId), headers);
    }
    const params = parseFormBody(method === 'POST' ? text : url.search.slice(1));
    const ids = (route.pattern.exec(path) ?? []).slice(1).map((id) => decodeURIComponent(id));

    const check = idempotencyKey ? idempotency.check(settings.secretKey, idempotencyKey, method, path, params) : undefined;
    if (check?.kind === 'refused') {
      record(check.status);
      return sendJson(response, check.status, errorEnvelope(check.body.error, requestId), headers);
    }
    if (check?.kind === 'replay') {
      record(check.result.status, true);
      return sendJson(response, check.result.status, check.result.body, {
        ...headers, 'idempotent-replayed': 'true', 'original-request': check.result.requestId,
      });
    }
    // A latency lets tests overlap two requests with one key (Stripe's 409) or time out a client.
    const latency = settings.latencyMs();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    let status = 200;
    let body: object;
    try {
      body = route.handle(state, { params, ids, origin: { id: requestId, idempotencyKey } });
      check?.finish({ status, body, requestId });
    } catch (error) {
      if (!(error instanceof StripeApiError)) {
        check?.finish(undefined);
        throw error;
      }
      status = error.status;
      body = errorEnvelope(error.body, requestId);
      check?.finish(error.replayable ? { status, body, requestId } : undefined);
    }
    record(status);
    sendJson(response, status, body, headers);
  }

  return createServer((request, response) => {
    (async () => {
      const url = new URL(request.url ?? '/', 'http://double.invalid');
      const text = await readBody(request);
      if (text === undefined) {
        response.writeHead(413).end();
        return;
      }
      if (url.pathname.startsWith('/v1/')) return handleApi(request, response, url, text);
      const form = new URLSearchParams(request.method === 'POST' ? text : '');
      const checkout = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
      if (checkout) return sendHosted(response, checkoutPage(state, decodeURIComponent(checkout[1]!), request.method ?? 'GET', form, url.searchParams));
      if (url.pathname === '/3d_secure_2/hosted') return sendHosted(response, threeDSecurePage(state, request.method ?? 'GET', form, url.searchParams));
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: `double failure: ${(error as Error).message}` } }));
    });
  });
}

export function addressOf(server: ReturnType<typeof createDoubleServer>): AddressInfo {
  return server.address() as AddressInfo;
}
