// The official Stripe client, configured once: the secret key, and optionally another API host
// (STRIPE_API_BASE_URL, e.g. the local double in tests). The library retries network failures and
// 409s with the same idempotency key, so a retry never charges twice.
import type Stripe from 'stripe';
import { stripeLibrary } from '../load-libraries.js';

export interface StripeSettings {
  secretKey: string;
  /** Where Stripe's webhook signs its events (whsec_…); without it the webhook answers 503. */
  webhookSecret?: string;
  /** Another API origin (scheme, host, port only), e.g. http://127.0.0.1:12111. */
  apiBaseUrl?: string;
}

/** Stripe's own hosted pages: Checkout (adding a card) and the 3-D Secure redirect. */
const STRIPE_HOSTED_ORIGINS = ['https://checkout.stripe.com', 'https://hooks.stripe.com'];

export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBaseUrl ? new URL(settings.apiBaseUrl) : undefined;
  const StripeClient = stripeLibrary();
  return new StripeClient(settings.secretKey, {
    ...(base ? {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'voice-router' },
  });
}

/** Origins a console form may lead to (the CSP's form-action): Stripe's, plus a configured API host's. */
export function hostedOrigins(settings: StripeSettings): string[] {
  return settings.apiBaseUrl ? [...STRIPE_HOSTED_ORIGINS, new URL(settings.apiBaseUrl).origin] : STRIPE_HOSTED_ORIGINS;
}
