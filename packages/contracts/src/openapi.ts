// Builds the OpenAPI 3.1 document served at /v1/openapi.json from the zod schemas above.
import { z } from 'zod';
import { ERROR_STATUS, ErrorBodySchema, UPSTREAM_FAILURE_CODES, UPSTREAM_TIMEOUT_STATUS } from './errors.js';
import { MAX_SPEECH_BODY_BYTES, SPEECH_HEADERS, SpeechRequestSchema } from './speech.js';
import { ActivityResponseSchema, ActivityRowSchema, CreditsResponseSchema } from './credits.js';
import {
  DeviceCodeResponseSchema, LogoutAllResponseSchema, LogoutResponseSchema, PollRequestSchema, RevokedSessionSchema, SessionListSchema,
  SessionSchema, SessionTokenResponseSchema, WhoamiResponseSchema,
} from './auth.js';
import {
  ApiKeyListSchema, ApiKeySchema, CreateApiKeyRequestSchema, CreatedApiKeySchema, DeletedApiKeySchema, UpdateApiKeyRequestSchema,
} from './keys.js';
import { UsageResponseSchema } from './usage.js';
import { BillingMethodSchema, BillingMethodsResponseSchema, TopUpRequestSchema, TopUpResponseSchema, WebhookAckSchema } from './billing.js';
import {
  ModelSchema, PricingSchema, ProviderSchema, ProviderStatusSchema, ProvidersResponseSchema, StatusResponseSchema,
  VoiceSchema, VoicesResponseSchema,
} from './catalog.js';

const NAMED_SCHEMAS = [
  ErrorBodySchema, SpeechRequestSchema, CreditsResponseSchema, ActivityResponseSchema,
  ProvidersResponseSchema, VoicesResponseSchema, StatusResponseSchema, ActivityRowSchema, ProviderSchema, ModelSchema,
  PricingSchema, VoiceSchema, ProviderStatusSchema, DeviceCodeResponseSchema, PollRequestSchema, SessionTokenResponseSchema,
  WhoamiResponseSchema, LogoutResponseSchema, ApiKeySchema, ApiKeyListSchema, CreateApiKeyRequestSchema, CreatedApiKeySchema,
  DeletedApiKeySchema, UsageResponseSchema, SessionSchema, SessionListSchema, RevokedSessionSchema, LogoutAllResponseSchema, UpdateApiKeyRequestSchema,
  BillingMethodSchema, BillingMethodsResponseSchema, TopUpRequestSchema, TopUpResponseSchema, WebhookAckSchema,
];

const reference = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ content: { 'application/json': { schema: reference(id) } } });

function errors(...codes: Array<keyof typeof ERROR_STATUS>) {
  const responses: Record<string, unknown> = {};
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]);
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = { description: existing ? `${existing.description}, ${code}` : code, ...json('Error') };
  }
  return responses;
}

function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const schema of NAMED_SCHEMAS) registry.add(schema, { id: (schema.meta() as { id: string }).id });
  const output = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'input', unrepresentable: 'any' });
  const schemas: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(output.schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    schemas[id] = rest;
  }
  return schemas;
}

const upstreamCodeList = Object.entries(UPSTREAM_FAILURE_CODES).map(([code, meaning]) => `\`${code}\` (${meaning})`).join('; ');
const retryAfterHeader = (description: string) => ({ 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description } });

const RATE_LIMIT_TEXT =
  'rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, ' +
  'which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; ' +
  'session tokens are not counted here.';

/** 429 on data-plane endpoints a pk_ key may call: the rate case only. */
const rateLimitedResponse = {
  '429': {
    description: RATE_LIMIT_TEXT,
    headers: retryAfterHeader('Whole seconds until the rate window resets (a hard value: earlier retries are refused).'),
    ...json('Error'),
  },
};

/** 429 on speech: the rate case and the concurrency case, told apart by `error` (and `code`). */
const speechLimitedResponse = {
  '429': {
    description:
      `${RATE_LIMIT_TEXT} concurrency_limited (\`code\`: concurrency_limit_exceeded): the key already has maxConcurrency speech streams open ` +
      'across every replica; a slot frees the moment a stream ends. (For a key whose limits are both 64 or more, each replica may hold up to ' +
      '1/32 of its slots, at most 16, as spares for up to a second after its last request, so another replica can refuse that much early; ' +
      'see the README, "Limits".) A client may treat either as the same condition.',
    headers: retryAfterHeader('Rate limit: whole seconds until the window resets (hard). Concurrency limit: 1 (a soft hint).'),
    ...json('Error'),
  },
};

const bearer = [{ apiKey: [] }];
const session = [{ session: [] }];
const eitherToken = [{ apiKey: [] }, { session: [] }];
/** Explicitly open: the spec's one exception to "every request carries a bearer token" is device-code start
 *  (polling for that code's token, and fetching this document, cannot carry one either). */
const noToken: never[] = [];
const organizationHeader = {
  name: 'X-Organization-Id',
  in: 'header',
  schema: { type: 'string' },
  description:
    'Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization ' +
    '(else 403 organization_required); with exactly one organization it is the default, with none the personal account is.',
};

export function buildOpenApiDocument(options: { version?: string } = {}) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Router',
      version: options.version ?? '0.1.0',
      description:
        'One OpenAI-compatible text-to-speech interface in front of many providers, with a prepaid wallet in integer USD micro-dollars. ' +
        'Errors always have the body {"error": code, "details"?: text}. ' +
        'Paths are exact: another letter case, a trailing slash or a #fragment sent on the wire is 404 not_found, as for any unknown path. ' +
        'On a path listed here, HEAD is served wherever GET is (the same status and headers, no body), OPTIONS answers 200 with an Allow header and no content, ' +
        'and any other method it does not list is 405 method_not_allowed with an Allow header.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A `pk_` API key.' },
        session: { type: 'http', scheme: 'bearer', description: 'A `vr_session_` token from the device-code login. The wrong kind of token for an endpoint answers 403 scope_required.' },
      },
      schemas: componentSchemas(),
    },
    paths: {
      '/v1/audio/speech': {
        post: {
          operationId: 'createSpeech',
          summary: 'Synthesize speech (streamed)',
          description:
            'Reserves the cost, calls the provider, streams the audio as it arrives, then commits the charge. ' +
            'Failures before the first audio byte are not charged. A client that disconnects mid-stream is charged (the provider already did the work); ' +
            'an upstream that fails mid-stream is not charged and the stream ends without its terminating chunk, so the client sees a truncated response. ' +
            `Bodies over ${MAX_SPEECH_BODY_BYTES} bytes are refused. A provider with no API key configured answers 503 provider_unavailable. ` +
            'Upstream failures answer 502 (504 for the deadline) `upstream_error` with `code` naming the category; the raw upstream answer is never passed on. ' +
            'A provider that refuses a value the client chose (unknown voice, bad option, input too long for the model) answers 400 invalid_body naming the field; it is not retried or charged. ' +
            'Retryable failures (5xx, 408, 409, 429, network errors, the deadline) are retried before the first audio byte, waiting the upstream Retry-After when it fits within one attempt deadline and giving up at once when it does not. ' +
            'Each provider has a circuit breaker per process: after consecutive upstream failures it opens and speech to that provider answers 503 provider_unavailable at once, before anything is reserved, ' +
            'until a cooldown has passed; then one probe request goes upstream (others still get 503) and its first audio byte closes the breaker, its failure reopens it.',
          security: bearer,
          parameters: [{
            name: 'traceparent', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?$' },
            description: 'W3C Trace Context. A valid one is continued on the provider call (same trace id, the router\'s own parent id) and its trace id is logged; an invalid one is ignored.',
          }],
          requestBody: { required: true, ...json('SpeechRequest') },
          responses: {
            '200': {
              description: 'Audio, chunked.',
              headers: {
                [SPEECH_HEADERS.provider]: { schema: { type: 'string' }, description: 'The provider that served the request.' },
                [SPEECH_HEADERS.costMicros]: { schema: { type: 'integer' }, description: 'What this request costs, in micro-dollars.' },
                [SPEECH_HEADERS.warnings]: { schema: { type: 'string' }, description: 'Semicolon-separated notes on ignored or approximated options; absent when none.' },
                [SPEECH_HEADERS.requestId]: { schema: { type: 'string' }, description: 'Also the reservation id in the ledger.' },
              },
              content: {
                'audio/mpeg': { schema: { type: 'string', format: 'binary' } },
                // A media type object has no `description` (OpenAPI 3.1), so the PCM layout lives on the schema.
                'audio/l16': { schema: { type: 'string', format: 'binary', description: '16-bit little-endian, 24 kHz, mono.' } },
              },
            },
            ...errors('invalid_body', 'invalid_model', 'unauthorized', 'insufficient_credit', 'spend_limit_exceeded', 'scope_required', 'internal_error'),
            ...speechLimitedResponse,
            '502': {
              description: `upstream_error: the provider failed before any audio. \`code\` is one of: ${upstreamCodeList}.`,
              ...json('Error'),
            },
            '503': {
              description:
                'provider_unavailable: the provider has no API key on this deployment, its circuit breaker is open or half-open (then nothing was reserved or charged), ' +
                'the local synthesis queue is full, or this replica is shutting down.',
              headers: {
                [SPEECH_HEADERS.breakerState]: {
                  schema: { type: 'string', enum: ['open', 'half_open'] },
                  description: 'Present when the circuit breaker refused the request: `open`, or `half_open` while one probe request is in flight.',
                },
                'Retry-After': { schema: { type: 'integer' }, description: 'With `open`: whole seconds (rounded up) until the breaker lets a probe through; with a full local queue: when to retry.' },
              },
              ...json('Error'),
            },
            [String(UPSTREAM_TIMEOUT_STATUS)]: {
              description: 'upstream_error with `code` upstream_timeout: no audio within the per-attempt deadline (after the allowed attempts).',
              ...json('Error'),
            },
          },
        },
      },
      '/v1/credits': {
        get: {
          operationId: 'getCredits', summary: 'Wallet balance', security: eitherToken, parameters: [organizationHeader],
          responses: { '200': { description: 'The wallet.', ...json('Credits') }, ...errors('unauthorized', 'organization_required', 'forbidden'), ...rateLimitedResponse },
        },
      },
      '/v1/credits/activity': {
        get: {
          operationId: 'listCreditActivity',
          summary: 'Wallet activity (ledger rows)',
          security: eitherToken,
          parameters: [organizationHeader, { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } }],
          responses: {
            '200': { description: 'Ledger rows, newest first.', ...json('Activity') },
            ...errors('invalid_body', 'unauthorized', 'scope_required', 'organization_required', 'forbidden'),
            ...rateLimitedResponse,
          },
        },
      },
      '/v1/providers': {
        get: {
          operationId: 'listProviders', summary: 'Providers, models and pricing', security: eitherToken,
          responses: { '200': { description: 'Providers with models, formats and pricing.', ...json('Providers') }, ...errors('unauthorized'), ...rateLimitedResponse },
        },
      },
      '/v1/voices': {
        get: {
          operationId: 'listVoices',
          summary: 'Voices across providers',
          security: eitherToken,
          parameters: [
            { name: 'provider', in: 'query', schema: { type: 'string' }, description: 'Comma-separated provider ids.' },
            { name: 'language', in: 'query', schema: { type: 'string' }, description: 'ISO prefix, case-insensitive (`en` matches `en-US`).' },
            { name: 'gender', in: 'query', schema: { type: 'string' }, description: 'Exact gender label, case-insensitive.' },
          ],
          responses: { '200': { description: 'Voices across providers.', ...json('Voices') }, ...errors('invalid_body', 'unauthorized'), ...rateLimitedResponse },
        },
      },
      '/v1/status': {
        get: {
          operationId: 'getStatus', summary: 'Provider availability', security: eitherToken,
          description:
            'Computed without upstream calls. `unavailable` with `missing_api_key` or `circuit_open`, `degraded` with `circuit_half_open`. ' +
            'Circuit-breaker states are per process: behind a load balancer each data-plane replica answers with its own view.',
          responses: { '200': { description: 'Provider availability.', ...json('Status') }, ...errors('unauthorized'), ...rateLimitedResponse },
        },
      },
      '/v1/auth/device-code': {
        post: {
          operationId: 'createDeviceCode',
          summary: 'Start a device-code login (RFC 8628)',
          security: noToken,
          description:
            'No auth, no body. Codes expire after 600 s; only hashes of them are stored. At most 60 per client address per hour ' +
            '(429 rate_limited with Retry-After in seconds); the address is the connecting socket\'s, or taken from X-Forwarded-For only behind a configured trusted proxy.',
          responses: {
            '200': { description: 'Show user_code and verification_uri to the user; poll with device_code.', ...json('DeviceCode') },
            '429': { description: 'rate_limited', headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' } }, ...json('Error') },
            ...errors('auth_disabled'),
          },
        },
      },
      '/v1/auth/poll': {
        post: {
          operationId: 'pollDeviceCode',
          summary: 'Poll for the session token of a device code',
          security: noToken,
          description:
            'Poll at `interval` seconds. A device code yields one token: polling again after success answers 410 expired_token. ' +
            'Polling faster than the interval answers 400 slow_down (add 5 s). A denied request answers 403 access_denied.',
          requestBody: { required: true, ...json('PollRequest') },
          responses: {
            '200': { description: 'Approved.', ...json('SessionToken') },
            ...errors('invalid_body', 'authorization_pending', 'slow_down', 'invalid_device_code', 'expired_token', 'access_denied', 'auth_disabled'),
          },
        },
      },
      '/v1/auth/whoami': {
        get: { operationId: 'whoami', summary: 'Who the token belongs to', security: eitherToken, responses: { '200': { description: 'Who the token belongs to.', ...json('Whoami') }, ...errors('unauthorized') } },
      },
      '/v1/auth/logout': {
        post: {
          operationId: 'logout', summary: 'Revoke the session token', security: session,
          description: 'Revokes the bearer session. Revoked, expired or unknown tokens and pk_ keys answer {"revoked": false}.',
          responses: { '200': { description: 'Whether a session was revoked.', ...json('Logout') } },
        },
      },
      '/v1/auth/sessions': {
        get: {
          operationId: 'listSessions', summary: 'List your sessions', security: session,
          description: 'Beyond the spec. The user\'s active sessions (console and CLI), newest first; never their tokens.',
          responses: { '200': { description: 'Sessions.', ...json('SessionList') }, ...errors('unauthorized', 'scope_required') },
        },
      },
      '/v1/auth/sessions/{id}': {
        delete: {
          operationId: 'revokeSession', summary: 'Revoke one of your sessions', security: session,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          description: 'Beyond the spec. Revokes one of the caller\'s own sessions (the calling one too, if named). Another user\'s, an ended or an unknown session: 404.',
          responses: { '200': { description: 'Revoked.', ...json('RevokedSession') }, ...errors('unauthorized', 'scope_required', 'not_found') },
        },
      },
      '/v1/auth/logout-all': {
        post: {
          operationId: 'logoutAll', summary: 'Log out everywhere', security: session,
          description: 'Beyond the spec. Log out everywhere: revokes every session of the user, console and CLI, the calling one included.',
          responses: { '200': { description: 'How many sessions ended.', ...json('LogoutAll') }, ...errors('unauthorized', 'scope_required') },
        },
      },
      '/v1/keys': {
        get: {
          operationId: 'listKeys', summary: 'List API keys', security: session, parameters: [organizationHeader],
          description: 'Active keys of the selected account; every member of an organization sees all of them. The secret never appears.',
          responses: { '200': { description: 'Keys.', ...json('ApiKeyList') }, ...errors('unauthorized', 'scope_required', 'organization_required', 'forbidden') },
        },
        post: {
          operationId: 'createKey', summary: 'Create an API key', security: session, parameters: [organizationHeader],
          description: 'Any member may mint; the creator is recorded. A pk_ key cannot mint (403 scope_required).',
          requestBody: { required: true, ...json('CreateApiKeyRequest') },
          responses: { '200': { description: 'The key, with its secret shown once.', ...json('CreatedApiKey') }, ...errors('invalid_body', 'unauthorized', 'scope_required', 'organization_required', 'forbidden') },
        },
      },
      '/v1/keys/{id}': {
        delete: {
          operationId: 'revokeKey', summary: 'Revoke an API key', security: session,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          description:
            'Soft delete, by the member who minted the key or an owner of the key\'s account; another member of that account gets 403 forbidden; ' +
            'anyone else, or an unknown id, 404. The data plane stops accepting it at once in the same process and within one second on every replica.',
          responses: { '200': { description: 'Revoked.', ...json('DeletedApiKey') }, ...errors('unauthorized', 'scope_required', 'forbidden', 'not_found') },
        },
        patch: {
          operationId: 'updateKey', summary: 'Change a key\'s name or limits', security: session,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          description:
            'Beyond the spec: changes a key after creation (name and limits). Allowed for the member who minted it and for owners of its account; ' +
            'anyone else, or an unknown or revoked id, gets 404. Only the fields sent change; null returns a limit to the deployment default or removes ' +
            'a cap. A new cap counts what the key already spent in the current window. Takes effect at once on a data plane in the same process and ' +
            'within AUTH_CACHE_TTL_MS (500 ms) on every replica.',
          requestBody: { required: true, ...json('UpdateApiKeyRequest') },
          responses: { '200': { description: 'The key as listed.', ...json('ApiKey') }, ...errors('invalid_body', 'unauthorized', 'scope_required', 'not_found') },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'getUsage', summary: 'Usage report', security: session,
          parameters: [
            organizationHeader,
            { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 365, default: 30 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
          ],
          responses: { '200': { description: 'Usage of the selected account.', ...json('Usage') }, ...errors('invalid_body', 'unauthorized', 'scope_required', 'organization_required', 'forbidden') },
        },
      },
      '/v1/billing/methods': {
        get: {
          operationId: 'listBillingMethods', summary: 'Saved cards', security: session, parameters: [organizationHeader],
          description:
            'The saved cards of the selected account (an organization, or the personal account), the 5 most recent first. ' +
            'The list is empty until someone adds a card in the console (Billing page); no payment-processor customer exists before that. ' +
            '503 billing_not_configured when this deployment has no Stripe key.',
          responses: {
            '200': { description: 'Saved cards.', ...json('BillingMethods') },
            ...errors('unauthorized', 'scope_required', 'organization_required', 'forbidden', 'payment_processor_error', 'billing_not_configured'),
          },
        },
      },
      '/v1/billing/topup': {
        post: {
          operationId: 'createTopUp', summary: 'Top up the wallet from a saved card', security: session, parameters: [organizationHeader],
          description:
            'Charges a saved card off-session (a Stripe PaymentIntent confirmed with off_session=true). A CLI session token or the console\'s ' +
            'session token may be sent as the bearer; a pk_ key is refused (403 scope_required). The wallet is credited afterwards, by the ' +
            'payment processor\'s webhook (`POST /v1/billing/webhook`). Retrying with the same `idempotency_key` never charges twice: it answers ' +
            'as the first attempt did (the same key with another amount or card: 400 idempotency_key_reused; while the first attempt is still ' +
            'running: 409 topup_in_progress). A declined card: 402 card_declined with `decline_code`. A card whose bank wants the cardholder to ' +
            'confirm (3-D Secure): 402 stripe_3ds_required with `url`, a console page that completes the payment on-session; after it the ' +
            'card normally works off-session. 503 billing_not_configured when this deployment has no Stripe key.',
          requestBody: { required: true, ...json('TopUpRequest') },
          responses: {
            '200': { description: 'Charged; the wallet is credited when the webhook arrives.', ...json('TopUpResponse') },
            ...errors(
              'invalid_body', 'invalid_payment_method', 'idempotency_key_reused', 'unauthorized', 'card_declined', 'stripe_3ds_required',
              'scope_required', 'organization_required', 'forbidden', 'topup_in_progress', 'payment_processor_error', 'billing_not_configured',
            ),
          },
        },
      },
      '/v1/billing/webhook': {
        post: {
          operationId: 'receiveStripeWebhook',
          summary: 'Stripe webhook endpoint (for Stripe, not for clients)',
          // No bearer token: Stripe proves itself with the Stripe-Signature header instead.
          security: noToken,
          description:
            'Takes Stripe events signed with STRIPE_WEBHOOK_SECRET (the Stripe-Signature header, checked on the raw body by the official ' +
            'library; a missing or bad signature is 400 invalid_signature and changes nothing). payment_intent.succeeded credits the wallet ' +
            'of the account whose Stripe customer paid, once per PaymentIntent however often or in whatever order it arrives. refund.created / ' +
            'refund.updated debit a refund once per refund (refund.failed gives it back); charge.dispute.closed with status lost debits the ' +
            'disputed amount. A debit never takes money reserved by requests in flight: what cannot be taken is recorded on the ledger row ' +
            '(metadata.shortfallMicros) and logged for the operator. Other event types answer 200 with ignored=true. A 500 makes Stripe retry.',
          parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe Event object.' } } } },
          responses: {
            '200': { description: 'Accepted (acted on, or ignored).', ...json('WebhookAck') },
            ...errors('invalid_signature', 'invalid_body', 'internal_error', 'billing_not_configured'),
          },
        },
      },
      '/v1/openapi.json': {
        get: { operationId: 'getOpenApiDocument', summary: 'This OpenAPI document', security: noToken, responses: { '200': { description: 'This document.' } } },
      },
    },
  };
}
