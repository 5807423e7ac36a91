// Stripe's documented recovery for an off-session payment that needs authentication: bring the
// cardholder back on-session (a console page), confirm the PaymentIntent again with a return_url
// and setup_future_usage=off_session, send the browser to the bank's challenge, and read the
// outcome when it returns. After a successful challenge the card normally works off-session.
import type Stripe from 'stripe';
import { findAccountByBillingCustomer, recordTopUp, type SqlClient } from '@voice-router/ledger';
import { isMissingObject, isStripeError, processorError, safeDeclineCode } from './billing-errors.js';
import { idOf, topUpStatusOf } from './billing-service.js';

export interface PendingPayment {
  paymentIntentId: string;
  accountId: string;
  amountCents: number;
  status: 'succeeded' | 'processing' | 'needs_authentication' | 'canceled';
  /** e.g. "visa ending 3155", when Stripe says which card. */
  card: string | null;
  paymentMethodId: string | null;
}

export type AuthenticationStart =
  | { next: 'redirect'; url: string }
  | { next: 'done'; status: 'succeeded' | 'processing' }
  | { next: 'declined'; declineCode: string }
  | { next: 'unavailable' };

export type AuthenticationResult = { status: 'succeeded' | 'processing' } | { status: 'failed'; reason: string } | { status: 'requires_action' };

function methodOf(intent: Stripe.PaymentIntent): Stripe.PaymentMethod | string | null {
  return intent.payment_method ?? intent.last_payment_error?.payment_method ?? null;
}

function describeCard(method: Stripe.PaymentMethod | string | null): string | null {
  if (!method || typeof method === 'string' || !method.card) return null;
  return `${method.card.brand} ending ${method.card.last4}`;
}

/** Charged (succeeded), or accepted and settling (processing): either way the webhook will credit it. */
function settledStatus(intent: Stripe.PaymentIntent): 'succeeded' | 'processing' | undefined {
  return intent.status === 'succeeded' ? 'succeeded' : intent.status === 'processing' ? 'processing' : undefined;
}

const isPaymentIntentId = (id: string) => /^pi_[A-Za-z0-9_]{1,200}$/.test(id);

export function createPaymentAuthentication(stripe: Stripe, sql: SqlClient) {
  async function retrieve(paymentIntentId: string): Promise<{ intent: Stripe.PaymentIntent; accountId: string } | undefined> {
    if (!isPaymentIntentId(paymentIntentId)) return undefined;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['payment_method'] });
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw processorError('reading a payment', error);
    }
    const customer = idOf(intent.customer);
    const accountId = customer ? await findAccountByBillingCustomer(sql, customer) : undefined;
    return accountId ? { intent, accountId } : undefined;
  }

  async function remember(accountId: string, intent: Stripe.PaymentIntent, failureCode: string | null) {
    await recordTopUp(sql, {
      paymentIntentId: intent.id, accountId, amountCents: intent.amount, status: topUpStatusOf(intent), failureCode,
      paymentMethodId: idOf(methodOf(intent)),
    });
  }

  return {
    /** The payment behind a stripe_3ds_required link, with the account it belongs to (for the membership check). */
    async pendingPayment(paymentIntentId: string): Promise<PendingPayment | undefined> {
      const found = await retrieve(paymentIntentId);
      if (!found) return undefined;
      const { intent, accountId } = found;
      const status = settledStatus(intent) ?? (intent.status === 'canceled' ? 'canceled' : 'needs_authentication');
      return {
        paymentIntentId: intent.id, accountId, amountCents: intent.amount, status, card: describeCard(methodOf(intent)),
        paymentMethodId: idOf(methodOf(intent)),
      };
    },

    /** Confirms on-session; Stripe answers with the bank's challenge URL (or settles at once). */
    async start(paymentIntentId: string, returnUrl: string): Promise<AuthenticationStart> {
      const found = await retrieve(paymentIntentId);
      if (!found) return { next: 'unavailable' };
      const { intent, accountId } = found;
      const settled = settledStatus(intent);
      if (settled) return { next: 'done', status: settled };
      const paymentMethod = idOf(methodOf(intent));
      if (!paymentMethod || !['requires_payment_method', 'requires_action', 'requires_confirmation'].includes(intent.status)) {
        return { next: 'unavailable' };
      }
      let confirmed: Stripe.PaymentIntent;
      try {
        confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: paymentMethod, return_url: returnUrl, setup_future_usage: 'off_session' });
      } catch (error) {
        if (isStripeError(error) && error.type === 'StripeCardError') {
          if (error.payment_intent) await remember(accountId, error.payment_intent, safeDeclineCode(error));
          return { next: 'declined', declineCode: safeDeclineCode(error) };
        }
        throw processorError('confirming a payment', error);
      }
      await remember(accountId, confirmed, null);
      const url = confirmed.next_action?.redirect_to_url?.url;
      if (confirmed.status === 'requires_action' && url) return { next: 'redirect', url };
      const done = settledStatus(confirmed);
      if (done) return { next: 'done', status: done };
      return { next: 'unavailable' };
    },

    /** Reads the payment again when the browser comes back from the bank. */
    async finish(paymentIntentId: string): Promise<AuthenticationResult | undefined> {
      const found = await retrieve(paymentIntentId);
      if (!found) return undefined;
      const { intent, accountId } = found;
      const reason = intent.last_payment_error?.code ?? null;
      await remember(accountId, intent, intent.status === 'requires_payment_method' ? reason : null);
      const settled = settledStatus(intent);
      if (settled) return { status: settled };
      if (intent.status === 'requires_action') return { status: 'requires_action' };
      return { status: 'failed', reason: reason && /^[a-z_]{1,64}$/.test(reason) ? reason : 'payment_failed' };
    },
  };
}

export type PaymentAuthentication = ReturnType<typeof createPaymentAuthentication>;
