// Every non-2xx body is {"error": code, "details"?: text}; this table is the one map from code to status.
import { z } from 'zod';

export const ERROR_STATUS = {
  invalid_body: 400,
  invalid_model: 400,
  authorization_pending: 400,
  slow_down: 400,
  unauthorized: 401,
  insufficient_credit: 402,
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
    details: z.string().optional(),
    url: z.string().optional().describe('stripe_3ds_required only: the console page where the user confirms the payment with their bank.'),
    decline_code: z.string().optional().describe('card_declined only: the card issuer\'s reason as Stripe names it (generic_decline, insufficient_funds, …).'),
  })
  .meta({ id: 'Error', description: 'Every error response. `details` is for people; `error` is the stable machine code.' });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorBody(code: ErrorCode, details?: string, extra: Pick<ErrorBody, 'url' | 'decline_code'> = {}): ErrorBody {
  return details === undefined ? { error: code, ...extra } : { error: code, details, ...extra };
}
