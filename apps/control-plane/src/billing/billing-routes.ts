// GET /v1/billing/methods, POST /v1/billing/topup (session tokens; a pk_ key is 403 scope_required)
// and POST /v1/billing/webhook (Stripe, verified on the raw body; mounted before the JSON parser).
import express, { type Response, type Router } from 'express';
import type Stripe from 'stripe';
import { TopUpRequestSchema, errorBody } from '@voice-router/contracts';
import type { Database } from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';
import { accountOf, requireSession, sendError } from '../authenticate.js';
import { publicBaseUrl } from '../public-url.js';
import { isSignatureError, PaymentProcessorError } from './billing-errors.js';
import type { Billing } from './billing.js';
import { apiRouter } from '../routes/api-router.js';

export interface BillingRouteOptions {
  database: Database;
  billing: Billing | undefined;
  logger: Logger;
  publicBaseUrl?: string;
}

const NOT_CONFIGURED = 'card payments are not configured on this deployment (no STRIPE_SECRET_KEY)';

function processorFailed(response: Response, logger: Logger, error: unknown): void {
  if (!(error instanceof PaymentProcessorError)) throw error;
  logger.error('payment processor request failed', { operation: error.operation, errorClass: error.stripeErrorClass, statusCode: error.statusCode });
  sendError(response, 'payment_processor_error', 'the payment processor did not answer as expected; nothing was charged twice, try again');
}

export function billingWebhookRoute(options: BillingRouteOptions): Router {
  const router = apiRouter();
  router.post('/v1/billing/webhook', express.raw({ type: () => true, limit: '1mb' }), async (request, response) => {
    const billing = options.billing;
    if (!billing?.verifyWebhook) return sendError(response, 'billing_not_configured', 'the Stripe webhook is not configured (no STRIPE_WEBHOOK_SECRET)');
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let event: Stripe.Event;
    try {
      event = billing.verifyWebhook(raw, request.get('stripe-signature'));
    } catch (error) {
      if (isSignatureError(error)) return sendError(response, 'invalid_signature', 'missing or invalid Stripe-Signature');
      return sendError(response, 'invalid_body', 'the webhook body is not a Stripe event');
    }
    try {
      const { ignored } = await billing.events.handle(event);
      response.json({ received: true, ignored });
    } catch (error) {
      // A 500 makes Stripe deliver the event again later; every action is idempotent.
      options.logger.error('webhook event failed; Stripe will retry', {
        eventId: event.id, type: event.type,
        error: error instanceof PaymentProcessorError ? error.message : error,
      });
      sendError(response, 'internal_error', 'the event could not be applied; it will be retried');
    }
  });
  return router;
}

export function billingRoutes(options: BillingRouteOptions): Router {
  const router = apiRouter();
  const { database, logger } = options;

  router.get('/v1/billing/methods', requireSession(database), async (_request, response) => {
    if (!options.billing) return sendError(response, 'billing_not_configured', NOT_CONFIGURED);
    try {
      response.json({ methods: await options.billing.service.listMethods(accountOf(response).accountId) });
    } catch (error) {
      processorFailed(response, logger, error);
    }
  });

  router.post('/v1/billing/topup', requireSession(database, { consoleSessions: true }), async (request, response) => {
    const billing = options.billing;
    if (!billing) return sendError(response, 'billing_not_configured', NOT_CONFIGURED);
    const parsed = TopUpRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      return sendError(response, 'invalid_body', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
    }
    const { amount_cents: amountCents, payment_method_id: paymentMethodId, idempotency_key: idempotencyKey } = parsed.data;
    let outcome;
    try {
      outcome = await billing.service.topUp({ accountId: accountOf(response).accountId, amountCents, paymentMethodId, idempotencyKey });
    } catch (error) {
      return processorFailed(response, logger, error);
    }
    switch (outcome.kind) {
      case 'charged':
        return response.json({ ok: true, payment_intent_id: outcome.paymentIntentId, amount_cents: outcome.amountCents });
      case 'declined':
        return response.status(402).json(errorBody('card_declined', `the card was declined (${outcome.declineCode}); nothing was charged`, {
          decline_code: outcome.declineCode,
        }));
      case 'authentication_required': {
        const url = `${publicBaseUrl(request, options.publicBaseUrl)}/console/billing/authenticate/${outcome.paymentIntentId}`;
        return response.status(402).json(errorBody('stripe_3ds_required', 'the card issuer wants the cardholder to confirm this payment: open url in a browser', { url }));
      }
      case 'invalid_payment_method':
        return sendError(response, 'invalid_payment_method', 'payment_method_id is not a saved card of this account (see GET /v1/billing/methods)');
      case 'idempotency_key_reused':
        return sendError(response, 'idempotency_key_reused', 'this idempotency_key was used for another top-up (other amount or card); use a new key');
      case 'in_progress':
        return sendError(response, 'topup_in_progress', 'a top-up with this idempotency_key is still being processed; retry in a moment');
    }
  });

  return router;
}
