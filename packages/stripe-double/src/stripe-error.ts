// Stripe's error envelope, `{"error": {type, code, message, param, …}}`, and the statuses it comes
// with: 400 invalid_request_error, 401 authentication, 402 card_error, 404 resource_missing,
// 409 a concurrent request with the same idempotency key.
import type Stripe from 'stripe';

export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  request_log_url?: string;
  charge?: string;
  payment_intent?: Stripe.PaymentIntent;
  payment_method?: Stripe.PaymentMethod;
  setup_intent?: Stripe.SetupIntent;
}

/** Thrown by a handler; the server writes it as Stripe would. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    /** False for parameter validation failures: Stripe saves no idempotent result for those. */
    readonly replayable = true,
  ) {
    super(body.message);
    this.name = 'StripeApiError';
  }
}

const docUrl = (code: string) => `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}`;

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code, doc_url: docUrl(code) } : {}),
  });
}

/** A parameter failed validation before anything ran (not saved for idempotent replay). */
export function invalidParameter(message: string, param: string, code = 'parameter_invalid'): StripeApiError {
  const error = invalidRequest(message, param, code);
  return new StripeApiError(error.status, error.body, false);
}

export function missingParameter(param: string): StripeApiError {
  return invalidParameter(`Missing required param: ${param}.`, param, 'parameter_missing');
}

/** 404 for the object in the URL; 400 when a parameter names an object that does not exist. */
export function noSuchObject(kind: string, id: string, param = 'id', status = 404): StripeApiError {
  return new StripeApiError(status, {
    type: 'invalid_request_error', code: 'resource_missing', doc_url: docUrl('resource_missing'),
    message: `No such ${kind}: '${id}'`, param,
  });
}

export function cardError(input: {
  code: string;
  declineCode?: string;
  message: string;
  charge?: string;
  paymentIntent?: Stripe.PaymentIntent;
  paymentMethod?: Stripe.PaymentMethod;
  setupIntent?: Stripe.SetupIntent;
}): StripeApiError {
  return new StripeApiError(402, {
    type: 'card_error',
    code: input.code,
    ...(input.declineCode ? { decline_code: input.declineCode } : {}),
    doc_url: docUrl(input.code),
    message: input.message,
    ...(input.charge ? { charge: input.charge } : {}),
    ...(input.paymentIntent ? { payment_intent: input.paymentIntent } : {}),
    ...(input.paymentMethod ? { payment_method: input.paymentMethod } : {}),
    ...(input.setupIntent ? { setup_intent: input.setupIntent } : {}),
  });
}

export function unexpectedState(kind: 'payment_intent' | 'setup_intent', status: string, action: string): StripeApiError {
  const label = kind === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
  return invalidRequest(
    `You cannot ${action} this ${label} because it has a status of ${status}.`,
    undefined,
    `${kind}_unexpected_state`,
  );
}
