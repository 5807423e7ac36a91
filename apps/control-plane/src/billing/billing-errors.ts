// How Stripe's failures are told apart. Stripe's own messages never leave this module: callers get
// a kind, and logs get the library's error class and the HTTP status only.
import type Stripe from 'stripe';
import { loadedStripe } from '../load-libraries.js';

/** Stripe could not be reached or answered in a way the router cannot act on (502). */
export class PaymentProcessorError extends Error {
  override readonly name = 'PaymentProcessorError';
  constructor(readonly operation: string, readonly stripeErrorClass: string, readonly statusCode: number | undefined) {
    super(`payment processor failed during ${operation} (${stripeErrorClass}${statusCode ? `, HTTP ${statusCode}` : ''})`);
  }
}

export function processorError(operation: string, error: unknown): PaymentProcessorError {
  if (isStripeError(error)) return new PaymentProcessorError(operation, error.type, error.statusCode);
  return new PaymentProcessorError(operation, error instanceof Error ? error.name : 'unknown', undefined);
}

export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  const library = loadedStripe();
  return library !== undefined && error instanceof library.errors.StripeError;
}

/** What the webhook's signature check throws for a missing, wrong or stale Stripe-Signature. */
export function isSignatureError(error: unknown): boolean {
  const library = loadedStripe();
  return library !== undefined && error instanceof library.errors.StripeSignatureVerificationError;
}

export const isMissingObject = (error: unknown) =>
  isStripeError(error) && (error.statusCode === 404 || error.code === 'resource_missing');

/** Decline codes are short snake_case words; anything else is reported as a generic decline. */
export function safeDeclineCode(error: Stripe.errors.StripeError): string {
  const code = error.decline_code ?? error.code;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'generic_decline';
}
