// Every non-2xx body is {"error": code, "details"?: text}; this table is the one map from code to status.
import { z } from 'zod';

export const ERROR_STATUS = {
  invalid_body: 400,
  invalid_model: 400,
  authorization_pending: 400,
  slow_down: 400,
  unauthorized: 401,
  insufficient_credit: 402,
  spend_limit_exceeded: 402,
  card_declined: 402,
  stripe_3ds_required: 402,
  invalid_payment_method: 400,
  idempotency_key_reused: 400,
  invalid_signature: 400,
  topup_in_progress: 409,
  payment_processor_error: 502,
  billing_not_configured: 503,
  scope_required: 403,
  organization_required: 403,
  forbidden: 403,
  access_denied: 403,
  not_found: 404,
  invalid_device_code: 404,
  expired_token: 410,
  rate_limited: 429,
  concurrency_limited: 429,
  method_not_allowed: 405,
  internal_error: 500,
  upstream_error: 502,
  provider_unavailable: 503,
  auth_disabled: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The spec answers a per-attempt deadline with 504 but keeps the code upstream_error. */
export const UPSTREAM_TIMEOUT_STATUS = 504;

/**
 * The `code` of a 502/504 `upstream_error`: why the provider failed, from a closed set the router owns.
 * Nothing from the upstream's own answer (message, code, headers) is ever passed on.
 */
export const UPSTREAM_FAILURE_CODES = {
  upstream_server_error: 'the provider answered 5xx (or 408/409) on every attempt',
  upstream_rate_limited: 'the provider answered 429, or asked to wait (Retry-After) longer than one attempt may take',
  upstream_auth_failed: "the provider refused this deployment's credentials (401/403)",
  upstream_quota_exceeded: "this deployment's account with the provider is out of credit or quota",
  upstream_rejected_request: 'the provider refused the request the router built for a reason not caused by the client (e.g. a misconfigured base URL)',
  upstream_bad_response: 'the provider answered success without audio (a text body, or nothing)',
  upstream_network_error: 'the connection to the provider failed or dropped before any audio',
  upstream_timeout: 'no audio within the per-attempt deadline (HTTP 504)',
} as const;

export type UpstreamFailureCode = keyof typeof UPSTREAM_FAILURE_CODES;

export const ErrorBodySchema = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    code: z
      .string()
      .optional()
      .describe(
        'A finer machine code where one `error` covers several cases: on 502/504 upstream_error one of the upstream failure codes listed on ' +
          'POST /v1/audio/speech; on 429 `rate_limit_exceeded` (rate_limited) or `concurrency_limit_exceeded` (concurrency_limited); on 402 ' +
          'spend_limit_exceeded `daily_spend_cap_exceeded` or `monthly_spend_cap_exceeded`.',
      ),
    details: z.string().optional(),
    url: z.string().optional().describe('stripe_3ds_required only: the console page where the user confirms the payment with their bank.'),
    decline_code: z.string().optional().describe('card_declined only: the card issuer\'s reason as Stripe names it (generic_decline, insufficient_funds, …).'),
  })
  .meta({ id: 'Error', description: 'Every error response. `details` is for people; `error` (and `code` when present) are stable machine codes.' });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** `extra`: the finer machine code (a string), or the fields some errors carry (`url`, `decline_code`, `code`). */
export function errorBody(
  code: ErrorCode, details?: string, extra: string | Pick<ErrorBody, 'code' | 'url' | 'decline_code'> = {},
): ErrorBody {
  const body: ErrorBody = { error: code, ...(typeof extra === 'string' ? { code: extra } : extra) };
  if (details !== undefined) body.details = details;
  return body;
}

/**
 * A method a known path does not serve, on both planes: 405 `method_not_allowed` with an `Allow` header
 * (this value) and this body; OPTIONS gets 200, the same header and no content. `served` are the path's
 * methods; HEAD is added wherever GET is, OPTIONS always, in a fixed order.
 */
export function methodAnswer(served: Iterable<string>, method: string): { allow: string; body: ErrorBody } {
  const methods = new Set(served);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((name) => methods.has(name)).join(', ');
  return { allow, body: errorBody('method_not_allowed', `${method} is not served here; allowed: ${allow}`) };
}

/** The finer `code` values of the per-key limits (429 and 402). */
export const LIMIT_CODES = {
  rate: 'rate_limit_exceeded',
  concurrency: 'concurrency_limit_exceeded',
  daily_spend_cap: 'daily_spend_cap_exceeded',
  monthly_spend_cap: 'monthly_spend_cap_exceeded',
} as const;
