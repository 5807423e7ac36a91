// The Billing page and its actions. Adding a card and confirming a payment happen on the payment
// processor's hosted pages: the console only starts those flows and reads their outcome.
import { randomUUID } from 'node:crypto';
import express, { type Response } from 'express';
import type { ConsoleBilling } from '../console-services.js';
import { field, queryString } from '../http/form.js';
import { allowFormActions, sendPage } from '../http/render.js';
import { baseUrlOf, requireSignedIn, signedIn } from '../http/request-context.js';
import { parseUsdToMicros } from '../money.js';
import { BillingPage, type BillingPageProps, type TopUpFormValues } from '../pages/billing-page.js';
import { MessagePage } from '../pages/message-page.js';
import { PaymentAuthenticationPage, type PaymentAuthenticationPageProps } from '../pages/payment-authentication-page.js';
import { isFailure, noticeText, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

const MIN_CENTS = 1_000;
const MAX_CENTS = 100_000;

/** "25" or "25.50" → 2550 cents, within the top-up bounds; never through a float. */
export function parseTopUpAmount(text: string): { ok: true; cents: number } | { ok: false; message: string } {
  const parsed = parseUsdToMicros(text);
  const bounds = 'Enter an amount from $10.00 to $1,000.00.';
  if (!parsed.ok) return { ok: false, message: bounds };
  if (parsed.micros % 10_000 !== 0) return { ok: false, message: 'Use whole cents (at most two decimals).' };
  const cents = parsed.micros / 10_000;
  return cents < MIN_CENTS || cents > MAX_CENTS ? { ok: false, message: bounds } : { ok: true, cents };
}

export function billingRoutes({ services }: RouteDependencies): express.Router {
  const router = express.Router();
  const billing: ConsoleBilling | undefined = services.billing;
  if (!billing) return router;
  router.use('/billing', requireSignedIn(services, '/console/billing'));

  async function renderBilling(response: Response, extra: Partial<BillingPageProps>, status = 200): Promise<void> {
    const { session, account } = signedIn(response);
    const overview = await billing!.overview({ userId: session.userId, accountId: account.accountId });
    const failed = isFailure(overview);
    allowFormActions(response, billing!.hostedOrigins);
    sendPage(response, (
      <BillingPage
        viewer={viewerOf(response)} methods={failed ? [] : overview.methods} topUps={failed ? [] : overview.topUps}
        idempotencyKey={randomUUID()} {...extra} error={extra.error ?? (failed ? overview.message : undefined)}
      />
    ), failed && status === 200 ? statusFor(overview) : status);
  }

  function renderAuthentication(response: Response, props: Omit<PaymentAuthenticationPageProps, 'viewer'>, status = 200): void {
    allowFormActions(response, billing!.hostedOrigins);
    sendPage(response, <PaymentAuthenticationPage viewer={viewerOf(response)} {...props} />, status);
  }

  router.get('/billing', async (request, response) => {
    await renderBilling(response, { notice: noticeText(request.query.notice) });
  });

  router.post('/billing/cards', async (request, response) => {
    const { session, account } = signedIn(response);
    const base = `${baseUrlOf(request)}/console/billing`;
    const started = await billing.startCardSetup({ userId: session.userId, accountId: account.accountId, returnUrl: `${base}/cards/added`, cancelUrl: `${base}?notice=card-setup-canceled` });
    if (!started.ok) return renderBilling(response, { error: started.message }, statusFor(started));
    response.redirect(303, started.url);
  });

  router.get('/billing/cards/added', async (request, response) => {
    const { session, account } = signedIn(response);
    const result = await billing.cardSetupResult({ userId: session.userId, accountId: account.accountId, sessionId: queryString(request, 'session_id', 300) });
    if (!result.ok) return renderBilling(response, { error: result.message }, statusFor(result));
    if (result.status === 'added') return response.redirect(303, '/console/billing?notice=card-added');
    await renderBilling(response, { error: 'The card was not saved. Add it again.' });
  });

  router.post('/billing/topup', async (request, response) => {
    const form: TopUpFormValues = { amount: field(request, 'amount', 40), paymentMethodId: field(request, 'payment_method_id', 255) };
    const idempotencyKey = field(request, 'idempotency_key', 100);
    const amount = parseTopUpAmount(form.amount);
    if (!amount.ok) return renderBilling(response, { form, error: amount.message }, 400);
    if (!/^[0-9a-f-]{36}$/.test(idempotencyKey) || !/^pm_[A-Za-z0-9_]+$/.test(form.paymentMethodId)) {
      return renderBilling(response, { form, error: 'The form is incomplete. Reload the page and try again.' }, 400);
    }
    const { session, account } = signedIn(response);
    const result = await billing.topUp({
      userId: session.userId, accountId: account.accountId, amountCents: amount.cents, paymentMethodId: form.paymentMethodId, idempotencyKey,
    });
    if (result.ok) return response.redirect(303, '/console/billing?notice=top-up-charged');
    if (result.reason === 'authentication_required') {
      return response.redirect(303, `/console/billing/authenticate/${encodeURIComponent(result.paymentIntentId)}`);
    }
    await renderBilling(response, { form, error: result.message }, statusFor(result));
  });

  router.get('/billing/authenticate/:paymentIntentId', async (request, response) => {
    const { session } = signedIn(response);
    const found = await billing.pendingPayment({ userId: session.userId, paymentIntentId: String(request.params.paymentIntentId) });
    if (!found.ok) return sendPage(response, <MessagePage title="Payment not found" message={found.message} />, statusFor(found));
    renderAuthentication(response, { payment: found.payment });
  });

  router.post('/billing/authenticate/:paymentIntentId', async (request, response) => {
    const { session } = signedIn(response);
    const paymentIntentId = String(request.params.paymentIntentId);
    const returnUrl = `${baseUrlOf(request)}/console/billing/authenticate/${encodeURIComponent(paymentIntentId)}/return`;
    const started = await billing.startAuthentication({ userId: session.userId, paymentIntentId, returnUrl });
    if (started.ok && 'redirectUrl' in started) return response.redirect(303, started.redirectUrl);
    const found = await billing.pendingPayment({ userId: session.userId, paymentIntentId });
    if (!found.ok) return sendPage(response, <MessagePage title="Payment not found" message={found.message} />, statusFor(found));
    if (started.ok) return renderAuthentication(response, { payment: found.payment, outcome: started.status });
    renderAuthentication(response, { payment: found.payment, outcome: 'failed', error: started.message }, statusFor(started));
  });

  router.get('/billing/authenticate/:paymentIntentId/return', async (request, response) => {
    const { session } = signedIn(response);
    const paymentIntentId = String(request.params.paymentIntentId);
    const result = await billing.finishAuthentication({ userId: session.userId, paymentIntentId });
    const found = await billing.pendingPayment({ userId: session.userId, paymentIntentId });
    if (!found.ok) return sendPage(response, <MessagePage title="Payment not found" message={found.message} />, statusFor(found));
    if (result.ok) return renderAuthentication(response, { payment: found.payment, outcome: result.status });
    renderAuthentication(response, { payment: found.payment, outcome: 'failed', error: result.message }, 200);
  });

  return router;
}
