// Card billing for one deployment: each account's Stripe customer (created on first use), its saved
// cards, adding one through Stripe Checkout (setup mode), and off-session top-ups. The wallet is
// credited only by the webhook (webhook-events.ts), never here.
import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { SAVED_CARDS_LISTED, TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS, type BillingMethod } from '@voice-router/contracts';
import { findBillingCustomer, recordTopUp, saveBillingCustomer, type SqlClient, type TopUpStatus } from '@voice-router/ledger';
import { isMissingObject, isStripeError, processorError, safeDeclineCode } from './billing-errors.js';

export type TopUpOutcome =
  | { kind: 'charged'; paymentIntentId: string; amountCents: number }
  | { kind: 'declined'; declineCode: string; paymentIntentId?: string }
  | { kind: 'authentication_required'; paymentIntentId: string }
  | { kind: 'invalid_payment_method' }
  | { kind: 'idempotency_key_reused' }
  | { kind: 'in_progress' };

export interface TopUpInput {
  accountId: string;
  amountCents: number;
  paymentMethodId: string;
  idempotencyKey: string;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** Stripe's idempotency key for a top-up: the caller's key, scoped to the account so two accounts never collide. */
export const stripeTopUpKey = (accountId: string, key: string) => `vr-topup-${sha256(`${accountId}\n${key}`)}`;

export function topUpStatusOf(intent: Stripe.PaymentIntent): TopUpStatus {
  const known: TopUpStatus[] = ['succeeded', 'processing', 'requires_action', 'requires_payment_method', 'canceled'];
  return (known as string[]).includes(intent.status) ? (intent.status as TopUpStatus) : 'requires_payment_method';
}

export const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id ?? null);

export function createBillingService(stripe: Stripe, sql: SqlClient) {
  async function ensureCustomer(accountId: string, accountName: string): Promise<string> {
    const stored = await findBillingCustomer(sql, accountId);
    if (stored) return stored;
    // Concurrent first uses send the same key, so Stripe makes one customer and replays it to the others.
    const key = `vr-customer-${accountId}-${sha256(accountName).slice(0, 12)}`;
    let customer: Stripe.Customer;
    try {
      customer = await stripe.customers.create({ name: accountName, metadata: { account_id: accountId } }, { idempotencyKey: key });
    } catch (error) {
      throw processorError('customer creation', error);
    }
    return saveBillingCustomer(sql, accountId, customer.id);
  }

  async function record(accountId: string, intent: Stripe.PaymentIntent, failureCode: string | null, paymentMethodId: string | null) {
    await recordTopUp(sql, {
      paymentIntentId: intent.id, accountId, amountCents: intent.amount, status: topUpStatusOf(intent), failureCode,
      paymentMethodId: idOf(intent.payment_method) ?? idOf(intent.last_payment_error?.payment_method) ?? paymentMethodId,
    });
  }

  return {
    ensureCustomer,

    /** Up to five saved cards, newest first; none before the account has a customer. */
    async listMethods(accountId: string): Promise<BillingMethod[]> {
      const customer = await findBillingCustomer(sql, accountId);
      if (!customer) return [];
      let listed: Stripe.ApiList<Stripe.PaymentMethod>;
      try {
        listed = await stripe.customers.listPaymentMethods(customer, { type: 'card', limit: SAVED_CARDS_LISTED });
      } catch (error) {
        throw processorError('listing cards', error);
      }
      return listed.data.flatMap((method) => method.card ? [{
        id: method.id, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year,
      }] : []);
    },

    /** A Checkout Session in setup mode: Stripe's page collects the card, so no card data touches the router. */
    async startCardSetup(input: { accountId: string; accountName: string; successUrl: string; cancelUrl: string }): Promise<string> {
      const customer = await ensureCustomer(input.accountId, input.accountName);
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'setup', customer, currency: 'usd', allowed_payment_method_types: ['card'],
          success_url: input.successUrl, cancel_url: input.cancelUrl,
          metadata: { account_id: input.accountId }, setup_intent_data: { metadata: { account_id: input.accountId } },
        });
        if (!session.url) throw new Error('Checkout Session without a url');
        return session.url;
      } catch (error) {
        throw processorError('starting Checkout', error);
      }
    },

    /** Whether the card from a Checkout Session of this account was saved. */
    async cardSetupResult(accountId: string, sessionId: string): Promise<'added' | 'open' | 'expired' | 'not_found'> {
      const customer = await findBillingCustomer(sql, accountId);
      if (!customer || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return 'not_found';
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(sessionId);
      } catch (error) {
        if (isMissingObject(error)) return 'not_found';
        throw processorError('reading Checkout', error);
      }
      if (idOf(session.customer) !== customer) return 'not_found';
      return session.status === 'complete' ? 'added' : session.status === 'open' ? 'open' : 'expired';
    },

    /** Charges a saved card off-session. Retries with the same key get the first attempt's answer from Stripe. */
    async topUp(input: TopUpInput): Promise<TopUpOutcome> {
      if (!Number.isInteger(input.amountCents) || input.amountCents < TOP_UP_MIN_CENTS || input.amountCents > TOP_UP_MAX_CENTS) {
        throw new RangeError('amount out of bounds');
      }
      const customer = await findBillingCustomer(sql, input.accountId);
      if (!customer) return { kind: 'invalid_payment_method' };
      try {
        const method = await stripe.paymentMethods.retrieve(input.paymentMethodId);
        if (idOf(method.customer) !== customer) return { kind: 'invalid_payment_method' };
      } catch (error) {
        if (isMissingObject(error)) return { kind: 'invalid_payment_method' };
        throw processorError('reading the card', error);
      }
      try {
        const intent = await stripe.paymentIntents.create({
          amount: input.amountCents, currency: 'usd', customer, payment_method: input.paymentMethodId,
          off_session: true, confirm: true, allowed_payment_method_types: ['card'],
          description: 'Voice Router wallet top-up', metadata: { account_id: input.accountId },
        }, { idempotencyKey: stripeTopUpKey(input.accountId, input.idempotencyKey) });
        await record(input.accountId, intent, null, input.paymentMethodId);
        if (intent.status === 'succeeded' || intent.status === 'processing') {
          return { kind: 'charged', paymentIntentId: intent.id, amountCents: intent.amount };
        }
        if (intent.status === 'requires_action') return { kind: 'authentication_required', paymentIntentId: intent.id };
        return { kind: 'declined', declineCode: 'generic_decline', paymentIntentId: intent.id };
      } catch (error) {
        if (!isStripeError(error)) throw error;
        if (error.type === 'StripeCardError') {
          const intent = error.payment_intent;
          if (intent) await record(input.accountId, intent, safeDeclineCode(error), input.paymentMethodId);
          if (error.code === 'authentication_required' && intent) return { kind: 'authentication_required', paymentIntentId: intent.id };
          return { kind: 'declined', declineCode: safeDeclineCode(error), ...(intent ? { paymentIntentId: intent.id } : {}) };
        }
        if (error.type === 'StripeIdempotencyError') return { kind: 'idempotency_key_reused' };
        if (error.statusCode === 409) return { kind: 'in_progress' };
        if (error.type === 'StripeInvalidRequestError' && error.param === 'payment_method') return { kind: 'invalid_payment_method' };
        throw processorError('charging the card', error);
      }
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
