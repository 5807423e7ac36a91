// Card billing assembled from its settings: undefined when STRIPE_SECRET_KEY is not set, so every
// billing endpoint answers 503 billing_not_configured and the console shows no Billing page.
import type Stripe from 'stripe';
import type { SqlClient } from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';
import { createBillingService, type BillingService } from './billing-service.js';
import { createPaymentAuthentication, type PaymentAuthentication } from './payment-authentication.js';
import { createStripeClient, hostedOrigins, type StripeSettings } from './stripe-client.js';
import { createWebhookEvents, type WebhookEvents } from './webhook-events.js';

export interface Billing {
  service: BillingService;
  authentication: PaymentAuthentication;
  events: WebhookEvents;
  /** Verifies Stripe-Signature over the raw body (throws StripeSignatureVerificationError); undefined without a webhook secret. */
  verifyWebhook?: (rawBody: Buffer, signature: string | undefined) => Stripe.Event;
  hostedOrigins: string[];
}

export function createBilling(settings: StripeSettings | undefined, sql: SqlClient, logger: Logger): Billing | undefined {
  if (!settings) return undefined;
  const stripe = createStripeClient(settings);
  const secret = settings.webhookSecret;
  return {
    service: createBillingService(stripe, sql),
    authentication: createPaymentAuthentication(stripe, sql),
    events: createWebhookEvents(stripe, sql, logger),
    verifyWebhook: secret ? (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature ?? '', secret) : undefined,
    hostedOrigins: hostedOrigins(settings),
  };
}
