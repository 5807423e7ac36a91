// What Stripe's events do to the books. Every action is idempotent and keyed by Stripe's own ids,
// so a replayed, concurrent or reordered delivery changes nothing twice:
//   payment_intent.succeeded           → one `top-up` row per PaymentIntent (stripe:payment_intent:<id>)
//   refund.created / refund.updated    → one `refund` row per refund (stripe:refund:<id>), from its current state
//   refund.failed (after a debit)      → the debit given back once (stripe:refund_reversed:<id>)
//   charge.dispute.closed, status lost → one `refund` row per dispute (stripe:dispute:<id>)
// A debit never goes below what is reserved; the shortfall is on the row and in a warning log line.
import type Stripe from 'stripe';
import {
  debitWallet, findAccountByBillingCustomer, findLedgerEntryByKey, grantCredit, paymentIntentCreditKey, recordTopUp,
  type SqlClient,
} from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';
import { isMissingObject, processorError } from './billing-errors.js';
import { idOf, topUpStatusOf } from './billing-service.js';

const MICROS_PER_CENT = 10_000n;
const STATUS_EVENTS = new Set(['payment_intent.processing', 'payment_intent.requires_action', 'payment_intent.payment_failed', 'payment_intent.canceled']);
const REFUND_EVENTS = new Set(['refund.created', 'refund.updated', 'refund.failed']);

export function createWebhookEvents(stripe: Stripe, sql: SqlClient, logger: Logger) {
  /** The account a PaymentIntent belongs to: its customer's, and its metadata must not say otherwise. */
  async function accountOf(intent: Stripe.PaymentIntent): Promise<string | undefined> {
    const customer = idOf(intent.customer);
    const accountId = customer ? await findAccountByBillingCustomer(sql, customer) : undefined;
    if (!accountId) return undefined;
    const claimed = intent.metadata?.account_id;
    if (claimed && claimed !== accountId) {
      logger.error('payment metadata names another account than its customer; not credited', { paymentIntentId: intent.id, accountId });
      return undefined;
    }
    return accountId;
  }

  async function credit(intent: Stripe.PaymentIntent): Promise<boolean> {
    if (intent.status !== 'succeeded') return false;
    const accountId = await accountOf(intent);
    if (!accountId) {
      logger.warn('payment from an unknown customer ignored', { paymentIntentId: intent.id });
      return false;
    }
    if (intent.currency !== 'usd' || !Number.isInteger(intent.amount_received) || intent.amount_received <= 0) {
      logger.error('payment not in positive USD cents; not credited', { paymentIntentId: intent.id });
      return false;
    }
    const result = await grantCredit(sql, {
      accountId,
      amountMicros: BigInt(intent.amount_received) * MICROS_PER_CENT,
      source: 'stripe',
      metadata: { paymentIntentId: intent.id, amountCents: intent.amount_received, chargeId: idOf(intent.latest_charge) },
      idempotencyKey: paymentIntentCreditKey(intent.id),
    });
    await recordTopUp(sql, {
      paymentIntentId: intent.id, accountId, amountCents: intent.amount, status: 'succeeded', failureCode: null,
      paymentMethodId: idOf(intent.payment_method),
    });
    if (!result.duplicate) logger.info('wallet credited by card payment', { accountId, paymentIntentId: intent.id, amountCents: intent.amount_received });
    return true;
  }

  async function retrieveIntent(id: string): Promise<Stripe.PaymentIntent | undefined> {
    try {
      return await stripe.paymentIntents.retrieve(id);
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw processorError('reading a payment', error);
    }
  }

  /**
   * Money goes back only out of a payment that was credited: if the refund or dispute arrives
   * before payment_intent.succeeded, the credit is made first (the later event is then a duplicate).
   */
  async function creditedAccountOf(paymentIntentId: string | null): Promise<{ accountId: string; intent: Stripe.PaymentIntent } | undefined> {
    const intent = paymentIntentId ? await retrieveIntent(paymentIntentId) : undefined;
    if (!intent) return undefined;
    const accountId = await accountOf(intent);
    if (!accountId || !(await credit(intent))) return undefined;
    return { accountId, intent };
  }

  async function debit(accountId: string, cents: number, key: string, metadata: Record<string, unknown>) {
    const result = await debitWallet(sql, { accountId, amountMicros: BigInt(cents) * MICROS_PER_CENT, source: 'stripe', metadata, idempotencyKey: key });
    if (!result.duplicate && result.shortfallMicros > 0n) {
      logger.warn('card money returned exceeds the spendable balance; shortfall left for the operator', {
        accountId, ...metadata, shortfallMicros: result.shortfallMicros.toString(),
      });
    }
  }

  /** Acts on the refund as it is now at Stripe, whatever order its events came in. */
  async function settleRefund(refundId: string): Promise<void> {
    let refund: Stripe.Refund;
    try {
      refund = await stripe.refunds.retrieve(refundId);
    } catch (error) {
      if (isMissingObject(error)) return;
      throw processorError('reading a refund', error);
    }
    if (refund.currency !== 'usd') return;
    const found = await creditedAccountOf(idOf(refund.payment_intent));
    if (!found) return;
    const metadata = { refundId: refund.id, paymentIntentId: found.intent.id, amountCents: refund.amount };
    if (refund.status === 'failed' || refund.status === 'canceled') {
      const taken = await findLedgerEntryByKey(sql, `stripe:refund:${refund.id}`);
      if (taken && taken.microsDelta < 0n) {
        await grantCredit(sql, {
          accountId: found.accountId, amountMicros: -taken.microsDelta, source: 'stripe', metadata: { ...metadata, reason: 'refund_failed' },
          idempotencyKey: `stripe:refund_reversed:${refund.id}`,
        });
      }
      return;
    }
    await debit(found.accountId, refund.amount, `stripe:refund:${refund.id}`, metadata);
  }

  async function settleDispute(dispute: Stripe.Dispute): Promise<void> {
    if (dispute.status !== 'lost' || dispute.currency !== 'usd') return;
    const found = await creditedAccountOf(idOf(dispute.payment_intent));
    if (!found) return;
    await debit(found.accountId, dispute.amount, `stripe:dispute:${dispute.id}`, {
      disputeId: dispute.id, paymentIntentId: found.intent.id, amountCents: dispute.amount, reason: dispute.reason,
    });
  }

  return {
    /** Applies one verified event; `ignored` for types the router does not act on. */
    async handle(event: Stripe.Event): Promise<{ ignored: boolean }> {
      if (event.type === 'payment_intent.succeeded') {
        await credit(event.data.object);
        return { ignored: false };
      }
      if (STATUS_EVENTS.has(event.type)) {
        const intent = event.data.object as Stripe.PaymentIntent;
        const accountId = await accountOf(intent);
        if (accountId) {
          const failure = intent.last_payment_error?.code ?? null;
          await recordTopUp(sql, {
            paymentIntentId: intent.id, accountId, amountCents: intent.amount, status: topUpStatusOf(intent),
            failureCode: failure && /^[a-z_]{1,64}$/.test(failure) ? failure : null,
            paymentMethodId: idOf(intent.payment_method) ?? idOf(intent.last_payment_error?.payment_method),
          });
        }
        return { ignored: false };
      }
      if (REFUND_EVENTS.has(event.type)) {
        await settleRefund((event.data.object as Stripe.Refund).id);
        return { ignored: false };
      }
      if (event.type === 'charge.dispute.closed') {
        await settleDispute(event.data.object);
        return { ignored: false };
      }
      return { ignored: true };
    },
  };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
