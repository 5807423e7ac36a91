// How Stripe's failures are told apart. Stripe's own messages never leave this module: callers get
// a kind, and logs get the library's error class and the HTTP status only.
import Stripe from 'stripe';

/** Stripe could not be reached or answered in a way the router cannot act on (502). */
export class PaymentProcessorError extends Error {
  override readonly name = 'PaymentProcessorError';
  constructor(readonly operation: string, readonly stripeErrorClass: string, readonly statusCode: number | undefined) {
    super(`payment processor failed during ${operation} (${stripeErrorClass}${statusCode ? `, HTTP ${statusCode}` : ''})`);
  }
}

export function processorError(operation: string, error: unknown): PaymentProcessorError {
  if (error instanceof Stripe.errors.StripeError) return new PaymentProcessorError(operation, error.type, error.statusCode);
  return new PaymentProcessorError(operation, error instanceof Error ? error.name : 'unknown', undefined);
}

export const isStripeError = (error: unknown): error is Stripe.errors.StripeError => error instanceof Stripe.errors.StripeError;

export const isMissingObject = (error: unknown) =>
  isStripeError(error) && (error.statusCode === 404 || error.code === 'resource_missing');

/** Decline codes are short snake_case words; anything else is reported as a generic decline. */
export function safeDeclineCode(error: Stripe.errors.StripeError): string {
  const code = error.decline_code ?? error.code;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'generic_decline';
}
