// What every answer must satisfy, whatever was asked: no 500 and no other 5xx but the documented
// upstream ones on speech; every API error is JSON {error: <known code>} with the status its code maps
// to; a 2xx of a JSON route matches its contract schema; a 200 of speech is audio with an integer cost.
import {
  ActivityResponseSchema, ApiKeyListSchema, ApiKeySchema, BillingMethodsResponseSchema, TopUpResponseSchema, WebhookAckSchema, CreatedApiKeySchema, LogoutAllResponseSchema, RevokedSessionSchema, SessionListSchema, CreditsResponseSchema, DeletedApiKeySchema, DeviceCodeResponseSchema,
  ERROR_STATUS, LogoutResponseSchema, ProvidersResponseSchema, SPEECH_HEADERS, StatusResponseSchema, UPSTREAM_TIMEOUT_STATUS,
  UsageResponseSchema, VoicesResponseSchema, WhoamiResponseSchema, type ErrorCode,
} from '@voice-router/contracts';
import type { FuzzRequest, FuzzResponse } from './http-client.js';

interface SafeParser {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** The contract schema of each JSON route's 2xx body. */
const RESPONSE_SCHEMAS: Record<string, SafeParser> = {
  'GET /v1/credits': CreditsResponseSchema,
  'GET /v1/credits/activity': ActivityResponseSchema,
  'GET /v1/providers': ProvidersResponseSchema,
  'GET /v1/voices': VoicesResponseSchema,
  'GET /v1/status': StatusResponseSchema,
  'GET /v1/keys': ApiKeyListSchema,
  'POST /v1/keys': CreatedApiKeySchema,
  'DELETE /v1/keys/{id}': DeletedApiKeySchema,
  'PATCH /v1/keys/{id}': ApiKeySchema,
  'GET /v1/auth/sessions': SessionListSchema,
  'DELETE /v1/auth/sessions/{id}': RevokedSessionSchema,
  'POST /v1/auth/logout-all': LogoutAllResponseSchema,
  'GET /v1/billing/methods': BillingMethodsResponseSchema,
  'POST /v1/billing/topup': TopUpResponseSchema,
  'POST /v1/billing/webhook': WebhookAckSchema,
  'GET /v1/usage': UsageResponseSchema,
  'POST /v1/auth/device-code': DeviceCodeResponseSchema,
  'GET /v1/auth/whoami': WhoamiResponseSchema,
  'POST /v1/auth/logout': LogoutResponseSchema,
};

/** Speech may fail upstream: 502 upstream_error, 503 provider_unavailable (no key, or an open breaker), 504 on a deadline. */
const UPSTREAM_STATUSES = new Set([502, 503, UPSTREAM_TIMEOUT_STATUS]);
const SPEECH_ROUTE = 'POST /v1/audio/speech';
/** A documented 503 about this deployment's configuration (no Stripe key, sign-in switched off): not a fault. */
const CONFIGURATION_CODES = new Set(['billing_not_configured', 'auth_disabled']);
/** Where those configuration 503s can come from: billing (no Stripe key) and sign-in (AUTH_ENABLED=false). */
const CONFIGURABLE_PATHS = /^\/v1\/(billing|auth)\//;
/** Routes of the API, named by method and path ("GET /v1/keys"); not the console's or the generators' others. */
const API_ROUTE = /^[A-Z]+ \/(v1\/|healthz$|readyz$)/;

function errorCodeOf(body: Buffer): string | undefined {
  const parsed = parseJson(body);
  const code = parsed.ok ? (parsed.value as { error?: unknown } | null)?.error : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** RFC 9110's methods (CONNECT aside). uWebSockets.js closes the connection on any other method token,
 *  e.g. PROPFIND or a lowercase `get`: no answer, but nothing else happens either, so it is counted, not failed. */
const STANDARD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH']);

/** The console answers people with HTML; only API paths promise JSON errors. */
export function isApiPath(target: string): boolean {
  return !/console/i.test(target) && target !== '/' && !target.startsWith('/?');
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

function checkError(request: FuzzRequest, status: number, contentType: string, body: Buffer): string[] {
  if (request.method.toUpperCase() === 'HEAD') return [];
  if (!contentType.startsWith('application/json')) return [`${status} with content-type "${contentType}", not JSON: ${body.toString('utf8').slice(0, 200)}`];
  const parsed = parseJson(body);
  if (!parsed.ok) return [`${status} with a body that is not JSON: ${body.toString('utf8').slice(0, 200)}`];
  const code = (parsed.value as { error?: unknown } | null)?.error;
  if (typeof code !== 'string' || !(code in ERROR_STATUS)) return [`${status} with an unknown error code: ${JSON.stringify(parsed.value).slice(0, 200)}`];
  const expected = ERROR_STATUS[code as ErrorCode] as number;
  if (status !== expected && !(code === 'upstream_error' && status === UPSTREAM_TIMEOUT_STATUS)) {
    return [`${status} with error "${code}", which the contract maps to ${expected}`];
  }
  return [];
}

function checkSpeechAudio(headers: Record<string, unknown>, body: Buffer): string[] {
  const problems: string[] = [];
  const contentType = String(headers['content-type'] ?? '');
  if (!contentType.startsWith('audio/')) problems.push(`speech 200 with content-type "${contentType}"`);
  const cost = headers[SPEECH_HEADERS.costMicros.toLowerCase()];
  if (typeof cost !== 'string' || !/^\d+$/.test(cost)) problems.push(`speech 200 without an integer ${SPEECH_HEADERS.costMicros} (got ${String(cost)})`);
  if (!headers[SPEECH_HEADERS.requestId.toLowerCase()]) problems.push(`speech 200 without ${SPEECH_HEADERS.requestId}`);
  if (body.length === 0) problems.push('speech 200 with no audio');
  return problems;
}

/** Problems with one answer; empty when it is fine. */
export function checkResponse(request: FuzzRequest, response: FuzzResponse): string[] {
  // Headers beyond the server's limits may be refused by closing the connection, or left unanswered
  // until the server's idle timeout (uWebSockets.js does so past about 50 headers): counted, not failed.
  if (response.kind === 'left') return [];
  if (response.kind === 'timeout') return request.oversizedHeaders ? [] : ['no answer in time (a hung request)'];
  if (response.kind === 'closed') {
    if (request.oversizedHeaders || !STANDARD_METHODS.has(request.method) || response.error.startsWith('client refused')) return [];
    return [`the connection closed without an answer (${response.error})`];
  }
  const { status, headers, body } = response;
  const contentType = String(headers['content-type'] ?? '');
  if (status === 500) return [`500: ${body.toString('utf8').slice(0, 200)}`];
  const documented = (request.route === SPEECH_ROUTE && UPSTREAM_STATUSES.has(status))
    || (status === 503 && CONFIGURATION_CODES.has(errorCodeOf(body) ?? ''))
    // HEAD carries no body to name the code: a 503 on the paths whose configuration 503s are documented.
    || (status === 503 && request.method.toUpperCase() === 'HEAD' && CONFIGURABLE_PATHS.test(request.target));
  if (status >= 500 && !documented) return [`unexpected ${status}: ${body.toString('utf8').slice(0, 200)}`];
  if (status === 405 && typeof headers.allow !== 'string') return ['405 without an Allow header (RFC 9110 §15.5.6)'];
  if (status >= 400) {
    // A server may refuse oversized headers before routing, in its own words (431 or 400).
    if (request.oversizedHeaders && (status === 431 || status === 400 || status === 413) && !contentType.startsWith('application/json')) return [];
    return isApiPath(request.target) ? checkError(request, status, contentType, body) : [];
  }
  // Both planes match API paths exactly (case-sensitive, no trailing slash, nothing normalised or
  // decoded): a twisted form of an API route's path is an unknown path, never served.
  if (status < 400 && !request.canonicalPath && API_ROUTE.test(request.route)) {
    return [`${status} for ${request.target}, a non-canonical form of ${request.route}'s path`];
  }
  if (status >= 200 && status < 300 && request.canonicalPath && request.method.toUpperCase() !== 'HEAD') {
    if (request.route === SPEECH_ROUTE) return response.truncated ? [] : checkSpeechAudio(headers, body);
    const schema = RESPONSE_SCHEMAS[request.route];
    if (schema) {
      const parsed = parseJson(body);
      if (!parsed.ok) return [`${status} on ${request.route} with a body that is not JSON`];
      const result = schema.safeParse(parsed.value);
      if (!result.success) {
        const issues = result.error!.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
        return [`${status} on ${request.route} does not match its contract schema (${issues})`];
      }
    }
  }
  return [];
}
