// What a dashboard user or the card network does to a payment after the fact: refunds (which may
// settle later or fail) and disputes (which close won or lost). Each emits Stripe's events.
import type Stripe from 'stripe';
import { buildRefund } from './objects.js';
import { buildDispute } from './more-objects.js';
import type { DoubleState } from './state.js';

function succeededIntent(state: DoubleState, paymentIntentId: string): Stripe.PaymentIntent {
  const intent = state.paymentIntents.get(paymentIntentId);
  if (!intent || intent.status !== 'succeeded') throw new Error(`payment intent ${paymentIntentId} has not succeeded`);
  return intent;
}

/** What refunds still in force have returned of a payment. */
function refundedOf(state: DoubleState, paymentIntentId: string): number {
  return [...state.refunds.values()]
    .filter((refund) => refund.payment_intent === paymentIntentId && refund.status !== 'failed' && refund.status !== 'canceled')
    .reduce((sum, refund) => sum + refund.amount, 0);
}

export function refundPaymentIntent(
  state: DoubleState, paymentIntentId: string, options: { amount?: number; status?: 'succeeded' | 'pending' } = {},
): Stripe.Refund {
  const intent = succeededIntent(state, paymentIntentId);
  const refunded = refundedOf(state, intent.id);
  const amount = options.amount ?? intent.amount_received - refunded;
  if (amount <= 0 || amount + refunded > intent.amount_received) throw new Error(`cannot refund ${amount} of ${intent.id}`);
  const refund = buildRefund({
    amount, currency: intent.currency, charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : null,
    paymentIntent: intent.id, customer: typeof intent.customer === 'string' ? intent.customer : null,
    paymentMethod: typeof intent.payment_method === 'string' ? intent.payment_method : null,
  });
  refund.status = options.status ?? 'succeeded';
  state.refunds.set(refund.id, refund);
  state.emit('refund.created', refund);
  return refund;
}

/** A pending refund reaches its final state: refund.updated, and refund.failed as well when it failed. */
export function settleRefund(state: DoubleState, refundId: string, outcome: 'succeeded' | 'failed'): Stripe.Refund {
  const refund = state.refunds.get(refundId);
  if (!refund || refund.status !== 'pending') throw new Error(`refund ${refundId} is not pending`);
  refund.status = outcome;
  if (outcome === 'failed') refund.failure_reason = 'expired_or_canceled_card';
  state.emit('refund.updated', refund, undefined, { status: 'pending' });
  if (outcome === 'failed') state.emit('refund.failed', refund);
  return refund;
}

export function disputePaymentIntent(state: DoubleState, paymentIntentId: string): Stripe.Dispute {
  const intent = succeededIntent(state, paymentIntentId);
  const method = typeof intent.payment_method === 'string' ? state.paymentMethods.get(intent.payment_method) : undefined;
  // The cardholder disputes what is left of the charge after refunds.
  const dispute = buildDispute({
    amount: intent.amount_received - refundedOf(state, intent.id), currency: intent.currency, charge: String(intent.latest_charge), paymentIntent: intent.id,
    brand: method?.card.brand ?? 'visa',
  });
  state.disputes.set(dispute.id, dispute);
  state.emit('charge.dispute.created', dispute);
  return dispute;
}

export function closeDispute(state: DoubleState, disputeId: string, outcome: 'won' | 'lost'): Stripe.Dispute {
  const dispute = state.disputes.get(disputeId);
  if (!dispute) throw new Error(`no dispute ${disputeId}`);
  const previous = dispute.status;
  dispute.status = outcome;
  state.emit('charge.dispute.closed', dispute, undefined, { status: previous });
  return dispute;
}
