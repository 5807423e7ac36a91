// The fuzz's verdicts: each check must fail on the answer it exists to catch, and pass what the
// contract allows (a documented upstream 502 on speech, a server refusing oversized headers).
import { describe, expect, it } from 'vitest';
import { checkResponse } from './checks.js';
import type { FuzzRequest, FuzzResponse } from './http-client.js';

const request = (overrides: Partial<FuzzRequest> = {}): FuzzRequest => ({
  route: 'GET /v1/keys', method: 'GET', target: '/v1/keys', canonicalPath: true, headers: {}, ...overrides,
});
const json = (status: number, body: unknown, contentType = 'application/json'): FuzzResponse => ({
  kind: 'answered', status, headers: { 'content-type': contentType }, body: Buffer.from(JSON.stringify(body)), truncated: false,
});
const key = { id: 'k', name: 'n', keySuffix: 'abcd', dailySpendCapMicros: null, monthlySpendCapMicros: null, createdAt: 'now', createdBy: null };

describe('checkResponse', () => {
  it('fails any 500, and any other 5xx outside speech', () => {
    expect(checkResponse(request(), json(500, { error: 'internal_error' }))).toEqual([expect.stringMatching(/^500/)]);
    expect(checkResponse(request(), json(502, { error: 'upstream_error' }))).toEqual([expect.stringMatching(/^unexpected 502/)]);
    expect(checkResponse(request({ route: 'POST /v1/audio/speech' }), json(500, { error: 'internal_error' }))).toHaveLength(1);
  });

  it('allows a documented 503 about the deployment\'s configuration anywhere', () => {
    expect(checkResponse(request({ route: 'GET /v1/billing/methods', target: '/v1/billing/methods' }), json(503, { error: 'billing_not_configured' }))).toEqual([]);
    expect(checkResponse(request(), json(503, { error: 'provider_unavailable' }))).toHaveLength(1);
    // HEAD has no body to name the code: allowed on the configurable paths only.
    const head = (target: string) => request({ route: 'odd method', method: 'HEAD', target });
    const bodiless: FuzzResponse = { kind: 'answered', status: 503, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(0), truncated: false };
    expect(checkResponse(head('/v1/billing/methods'), bodiless)).toEqual([]);
    expect(checkResponse(head('/v1/credits'), bodiless)).toHaveLength(1);
  });

  it('allows the documented upstream 502, 503 and 504 on speech', () => {
    const speech = request({ route: 'POST /v1/audio/speech', method: 'POST', target: '/v1/audio/speech' });
    expect(checkResponse(speech, json(502, { error: 'upstream_error', code: 'upstream_server_error' }))).toEqual([]);
    expect(checkResponse(speech, json(503, { error: 'provider_unavailable' }))).toEqual([]);
    expect(checkResponse(speech, json(504, { error: 'upstream_error' }))).toEqual([]);
    expect(checkResponse(speech, json(504, { error: 'provider_unavailable' }))).toHaveLength(1);
  });

  it('requires API errors to be JSON with a known code and the status that code maps to', () => {
    expect(checkResponse(request(), json(401, { error: 'unauthorized' }))).toEqual([]);
    expect(checkResponse(request(), json(401, { error: 'unauthorized' }, 'text/html'))).toEqual([expect.stringContaining('not JSON')]);
    expect(checkResponse(request(), json(400, { error: 'bad_thing' }))).toEqual([expect.stringContaining('unknown error code')]);
    expect(checkResponse(request(), json(404, { error: 'unauthorized' }))).toEqual([expect.stringContaining('maps to 401')]);
    expect(checkResponse(request(), { kind: 'answered', status: 400, headers: { 'content-type': 'application/json' }, body: Buffer.from('{'), truncated: false })).toHaveLength(1);
    // The console answers people in HTML.
    expect(checkResponse(request({ route: 'console', target: '/console/x' }), json(404, 'Not found', 'text/html'))).toEqual([]);
  });

  it('checks 2xx bodies against the contract: a null key limit is caught', () => {
    expect(checkResponse(request(), json(200, { keys: [{ ...key, maxConcurrency: 8, rateLimitPerMinute: 600 }] }))).toEqual([]);
    expect(checkResponse(request(), json(200, { keys: [{ ...key, maxConcurrency: null, rateLimitPerMinute: 600 }] })))
      .toEqual([expect.stringContaining('keys.0.maxConcurrency')]);
  });

  it('refuses an API path served in a non-canonical form; the console may tolerate one', () => {
    for (const target of ['/V1/KEYS', '/v1/keys/', '/v1//keys', '/v1/./keys']) {
      expect(checkResponse(request({ canonicalPath: false, target }), json(200, { keys: [] })))
        .toEqual([expect.stringContaining('non-canonical')]);
      expect(checkResponse(request({ canonicalPath: false, target }), json(404, { error: 'not_found', details: 'no such endpoint' }))).toEqual([]);
    }
    expect(checkResponse(request({ route: 'GET /healthz', canonicalPath: false, target: '/healthz/' }), json(301, {})))
      .toEqual([expect.stringContaining('non-canonical')]);
    expect(checkResponse(request({ route: 'console', canonicalPath: false, target: '/console/login/' }), json(200, '<html>', 'text/html'))).toEqual([]);
  });

  it('requires speech 200s to carry audio, an integer cost and a request id', () => {
    const speech = request({ route: 'POST /v1/audio/speech', method: 'POST', target: '/v1/audio/speech' });
    const audio = (headers: Record<string, string>): FuzzResponse => ({ kind: 'answered', status: 200, headers, body: Buffer.from([0xff, 0xfb]), truncated: false });
    expect(checkResponse(speech, audio({ 'content-type': 'audio/mpeg', 'x-router-cost-micros': '150', 'x-request-id': 'r' }))).toEqual([]);
    expect(checkResponse(speech, audio({ 'content-type': 'audio/mpeg', 'x-router-cost-micros': '1.5', 'x-request-id': 'r' }))).toHaveLength(1);
    expect(checkResponse(speech, audio({ 'content-type': 'application/json', 'x-router-cost-micros': '1', 'x-request-id': 'r' }))).toHaveLength(1);
  });

  it('fails hangs and silent closes, except for oversized headers and non-standard methods', () => {
    expect(checkResponse(request(), { kind: 'timeout' })).toHaveLength(1);
    expect(checkResponse(request(), { kind: 'closed', error: 'ECONNRESET' })).toHaveLength(1);
    expect(checkResponse(request({ oversizedHeaders: true }), { kind: 'timeout' })).toEqual([]);
    expect(checkResponse(request({ oversizedHeaders: true }), { kind: 'closed', error: 'ECONNRESET' })).toEqual([]);
    expect(checkResponse(request({ method: 'PROPFIND' }), { kind: 'closed', error: 'ECONNRESET' })).toEqual([]);
    expect(checkResponse(request({ method: 'PUT' }), { kind: 'closed', error: 'ECONNRESET' })).toHaveLength(1);
  });

  it('fails a 405 without Allow, and leaves an answer the client walked away from unchecked', () => {
    const refused = json(405, { error: 'method_not_allowed' });
    expect(checkResponse(request({ method: 'PUT' }), refused)).toEqual([expect.stringMatching(/without an Allow header/)]);
    if (refused.kind === 'answered') refused.headers.allow = 'GET, HEAD, POST, OPTIONS';
    expect(checkResponse(request({ method: 'PUT' }), refused)).toEqual([]);
    expect(checkResponse(request({ leaveAfterMs: 0 }), { kind: 'left' })).toEqual([]);
  });
});
