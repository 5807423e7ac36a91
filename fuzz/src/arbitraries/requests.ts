// Whole requests, one generator per route of both planes plus unknown paths and odd methods. Each
// request names the route it aimed at, for the summary and for the checks that depend on the route.
import fc from 'fast-check';
import { MAX_SPEECH_BODY_BYTES } from '@voice-router/contracts';
import type { FuzzIdentities } from '../accounts.js';
import type { FuzzRequest } from '../http-client.js';
import { createKeyBody, encodedBody, pollBody, speechBody, updateKeyBody, type BodyText, type SpeechTarget } from './bodies.js';
import { authorization, otherHeaders, type CredentialOptions } from './credentials.js';
import { awkwardText, numberish, pathVariant, percentEncode, queryString } from './primitives.js';

/** The control plane's JSON body limit (express.json in control-plane.ts). */
const CONTROL_PLANE_BODY_BYTES = 16 * 1024;

export interface FuzzWorld {
  identities: FuzzIdentities;
  speechTargets: SpeechTarget[];
}

interface RouteSpec {
  route: string;
  method: string;
  path: fc.Arbitrary<string>;
  query?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<BodyText>;
  credentials?: CredentialOptions;
  weight: number;
}

function request(world: FuzzWorld, spec: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const withBody = spec.body !== undefined;
  return fc
    .record({
      path: spec.path.chain(pathVariant),
      query: spec.query ?? fc.constant(''),
      authorization: authorization(world.identities, spec.credentials),
      other: otherHeaders(withBody),
      body: spec.body ?? fc.constant(undefined),
      chunked: withBody ? fc.boolean() : fc.constant(false),
      // One input in eight leaves within 20 ms, often before the answer (a forwarded request's client that
      // left once ended the whole process).
      leaveAfterMs: fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 20 }) }),
    })
    .map((drawn) => {
      const headers = { ...drawn.other.headers };
      if (drawn.authorization !== undefined) headers.authorization = drawn.authorization;
      return {
        route: spec.route,
        method: spec.method,
        target: drawn.path.path + drawn.query,
        canonicalPath: drawn.path.canonical,
        headers,
        ...(drawn.body ? { body: drawn.body.text, bodyLatin1: drawn.body.latin1 ?? false, chunked: drawn.chunked } : {}),
        oversizedHeaders: drawn.other.oversized,
        ...(drawn.leaveAfterMs !== undefined && !/audio\/speech/i.test(drawn.path.path) ? { leaveAfterMs: drawn.leaveAfterMs } : {}),
      } satisfies FuzzRequest;
    });
}

const fixed = (path: string) => fc.constant(path);
const ODD_METHODS = ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO', 'get', 'POST', 'GET'];
const KNOWN_PATHS = [
  '/v1/audio/speech', '/v1/credits', '/v1/credits/activity', '/v1/providers', '/v1/voices', '/v1/status', '/v1/keys', '/v1/usage',
  '/v1/auth/device-code', '/v1/auth/poll', '/v1/auth/whoami', '/v1/auth/sessions', '/v1/openapi.json', '/healthz', '/readyz',
  '/v1/billing/methods', '/v1/billing/topup', '/v1/billing/webhook',
];

export function routeSpecs(world: FuzzWorld): RouteSpec[] {
  const anyBody = encodedBody(fc.jsonValue({ maxDepth: 2 }), CONTROL_PLANE_BODY_BYTES);
  return [
    { route: 'POST /v1/audio/speech', method: 'POST', path: fixed('/v1/audio/speech'), body: encodedBody(speechBody(world.speechTargets), MAX_SPEECH_BODY_BYTES), credentials: { mostly: 'key' }, weight: 30 },
    { route: 'GET /v1/credits', method: 'GET', path: fixed('/v1/credits'), query: queryString([]), weight: 5 },
    { route: 'GET /v1/credits/activity', method: 'GET', path: fixed('/v1/credits/activity'), query: queryString(['limit']), weight: 6 },
    { route: 'GET /v1/providers', method: 'GET', path: fixed('/v1/providers'), query: queryString([]), weight: 3 },
    { route: 'GET /v1/voices', method: 'GET', path: fixed('/v1/voices'), query: queryString(['provider', 'language', 'gender'], fc.oneof(awkwardText, fc.constantFrom('openai', 'local,openai', 'en', 'EN-us', 'female', ',,', 'openai,'))), weight: 5 },
    { route: 'GET /v1/status', method: 'GET', path: fixed('/v1/status'), query: queryString([]), weight: 3 },
    { route: 'GET /v1/keys', method: 'GET', path: fixed('/v1/keys'), credentials: { mostly: 'session' }, weight: 4 },
    { route: 'POST /v1/keys', method: 'POST', path: fixed('/v1/keys'), body: encodedBody(createKeyBody, CONTROL_PLANE_BODY_BYTES), credentials: { mostly: 'session' }, weight: 5 },
    {
      route: 'DELETE /v1/keys/{id}', method: 'DELETE',
      path: fc.oneof(fc.uuid(), awkwardText.map(percentEncode), fc.constantFrom('', '%2F', '..', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000')).map((id) => `/v1/keys/${id}`),
      credentials: { mostly: 'session' },
      weight: 3,
    },
    {
      route: 'PATCH /v1/keys/{id}', method: 'PATCH',
      path: fc.oneof(fc.constant(world.identities.limitedKeyId), fc.uuid(), awkwardText.map(percentEncode)).map((id) => `/v1/keys/${id}`),
      body: encodedBody(updateKeyBody, CONTROL_PLANE_BODY_BYTES), credentials: { mostly: 'session' }, weight: 3,
    },
    { route: 'GET /v1/auth/sessions', method: 'GET', path: fixed('/v1/auth/sessions'), credentials: { mostly: 'session' }, weight: 2 },
    {
      route: 'DELETE /v1/auth/sessions/{id}', method: 'DELETE',
      path: fc.oneof(fc.uuid(), awkwardText.map(percentEncode), fc.constantFrom('', 'current', '%C0%AF')).map((id) => `/v1/auth/sessions/${id}`),
      credentials: { mostly: 'session' }, weight: 2,
    },
    { route: 'POST /v1/auth/logout-all', method: 'POST', path: fixed('/v1/auth/logout-all'), credentials: { withoutSession: true }, weight: 1 },
    { route: 'GET /readyz', method: 'GET', path: fixed('/readyz'), weight: 1 },
    // Billing has no Stripe key here: the documented 503 billing_not_configured, or the refusals before it.
    { route: 'GET /v1/billing/methods', method: 'GET', path: fixed('/v1/billing/methods'), credentials: { mostly: 'session' }, weight: 1 },
    {
      route: 'POST /v1/billing/topup', method: 'POST', path: fixed('/v1/billing/topup'), credentials: { mostly: 'session' }, weight: 2,
      body: encodedBody(fc.record({ amount_cents: fc.oneof(fc.integer({ min: 500, max: 200_000 }), fc.string()), payment_method_id: fc.oneof(fc.constant('pm_card_visa'), fc.string()), idempotency_key: fc.oneof(fc.uuid(), awkwardText) }, { requiredKeys: [] }), CONTROL_PLANE_BODY_BYTES),
    },
    {
      route: 'POST /v1/billing/webhook', method: 'POST', path: fixed('/v1/billing/webhook'), weight: 2,
      body: encodedBody(fc.record({ id: fc.string(), type: fc.constantFrom('payment_intent.succeeded', 'refund.created', 'charge.dispute.closed', 'x'), data: fc.jsonValue({ maxDepth: 2 }) }), CONTROL_PLANE_BODY_BYTES),
    },
    { route: 'GET /v1/usage', method: 'GET', path: fixed('/v1/usage'), query: queryString(['days', 'limit'], numberish), credentials: { mostly: 'session' }, weight: 5 },
    { route: 'POST /v1/auth/device-code', method: 'POST', path: fixed('/v1/auth/device-code'), body: fc.oneof(fc.constant({ text: '' }), anyBody), weight: 2 },
    { route: 'POST /v1/auth/poll', method: 'POST', path: fixed('/v1/auth/poll'), body: encodedBody(pollBody, CONTROL_PLANE_BODY_BYTES), weight: 3 },
    { route: 'GET /v1/auth/whoami', method: 'GET', path: fixed('/v1/auth/whoami'), weight: 3 },
    { route: 'POST /v1/auth/logout', method: 'POST', path: fixed('/v1/auth/logout'), credentials: { withoutSession: true }, weight: 2 },
    { route: 'GET /v1/openapi.json', method: 'GET', path: fixed('/v1/openapi.json'), weight: 1 },
    { route: 'GET /healthz', method: 'GET', path: fixed('/healthz'), weight: 1 },
    {
      route: 'console', method: 'GET',
      path: fc.oneof(
        fc.constantFrom('/console', '/console/login', '/console/signup', '/console/keys', '/console/wallet', '/console/usage', '/console/organizations', '/console/device', '/'),
        fc.webSegment().map((segment) => `/console/${segment}`),
        fc.webSegment().map((segment) => `/console/invitations/${segment}`),
        fc.webSegment().map((segment) => `/console/assets/${segment}`),
      ),
      query: queryString(['next', 'user_code', 'invitation'], fc.oneof(awkwardText, fc.constantFrom('//evil.example', 'https://evil.example', '/console/keys', 'javascript:alert(1)'))),
      weight: 3,
    },
    {
      route: 'console form', method: 'POST',
      path: fc.constantFrom('/console/login', '/console/signup', '/console/keys', '/console/logout', '/console/device', '/console/device/decide', '/console/organizations'),
      body: fc.dictionary(fc.constantFrom('email', 'password', '_csrf', 'next', 'name', 'user_code', 'decision', 'max_concurrency'), awkwardText, { maxKeys: 4 })
        .map((fields) => ({ text: new URLSearchParams(fields as Record<string, string>).toString() })),
      weight: 2,
    },
    {
      route: 'unknown path', method: 'GET',
      path: fc.oneof(
        fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
        fc.webSegment().map((segment) => `/v1/${segment}`),
        fc.constantFrom('/v2/audio/speech', '/v1', '/v1/', '/internal/metrics', '/admin/commands', '/v1/audio', '/v1/credits/activity/extra', '/%2e%2e/etc/passwd', '/*', '/v1/keys/'),
      ),
      query: queryString(['limit']),
      weight: 4,
    },
  ];
}

/** Known paths with methods they do not serve. */
function oddMethod(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(fc.constantFrom(...ODD_METHODS), fc.constantFrom(...KNOWN_PATHS)).chain(([method, path]) =>
    request(world, { route: 'odd method', method, path: fixed(path), body: method === 'GET' || method === 'HEAD' ? undefined : encodedBody(fc.jsonValue({ maxDepth: 2 }), CONTROL_PLANE_BODY_BYTES), weight: 0 }),
  );
}

export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    ...routeSpecs(world).map((spec) => ({ weight: spec.weight, arbitrary: request(world, spec) })),
    { weight: 5, arbitrary: oddMethod(world) },
  );
}
