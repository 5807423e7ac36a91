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

export const ErrorBodySchema = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    code: z.string().optional().describe(
      'A finer machine code where one `error` covers several cases: on 429 `rate_limit_exceeded` (rate_limited) or ' +
        '`concurrency_limit_exceeded` (concurrency_limited); on 402 spend_limit_exceeded `daily_spend_cap_exceeded` or `monthly_spend_cap_exceeded`.',
    ),
    details: z.string().optional(),
  })
  .meta({ id: 'Error', description: 'Every error response. `details` is for people; `error` (and `code`, when present) are stable machine codes.' });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorBody(code: ErrorCode, details?: string, detailCode?: string): ErrorBody {
  const body: ErrorBody = { error: code };
  if (detailCode !== undefined) body.code = detailCode;
  if (details !== undefined) body.details = details;
  return body;
}

/** The finer `code` values of the per-key limits (429 and 402). */
export const LIMIT_CODES = {
  rate: 'rate_limit_exceeded',
  concurrency: 'concurrency_limit_exceeded',
  daily_spend_cap: 'daily_spend_cap_exceeded',
  monthly_spend_cap: 'monthly_spend_cap_exceeded',
} as const;
