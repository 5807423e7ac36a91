// What a card does when it is attached, set up, or charged: the test cards' documented behaviour
// applied to PaymentIntents and SetupIntents, with the events Stripe sends for each outcome.
import type Stripe from 'stripe';
import { newId } from './ids.js';
import { buildPaymentMethod } from './objects.js';
import type { DoubleState, PaymentMethodRecord, RequestOrigin } from './state.js';
import { cardError, invalidRequest, noSuchObject, unexpectedState } from './stripe-error.js';
import { cardByToken } from './test-cards.js';

const DECLINE_MESSAGES: Record<string, string> = {
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card has been declined.',
};
const AUTHENTICATION_FAILURE = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** A `pm_card_*` token makes a fresh PaymentMethod on every use, as in Stripe's test mode. */
export function resolvePaymentMethod(state: DoubleState, id: string, param = 'payment_method'): PaymentMethodRecord {
  const token = cardByToken(id);
  if (token) {
    const record: PaymentMethodRecord = { object: buildPaymentMethod(token), card: token, setUpForOffSession: false };
    state.paymentMethods.set(record.object.id, record);
    return record;
  }
  const record = state.paymentMethods.get(id);
  if (!record) throw noSuchObject('PaymentMethod', id, param, 400);
  return record;
}

export function attachPaymentMethod(state: DoubleState, record: PaymentMethodRecord, customerId: string, origin: RequestOrigin): void {
  if (record.object.customer === customerId) return;
  if (record.object.customer) {
    throw invalidRequest(`The payment method you provided has already been attached to a customer.`, 'payment_method', 'payment_method_unexpected_state');
  }
  if (record.card.behaviour.kind === 'declines_on_attach') {
    throw cardError({ code: 'card_declined', declineCode: record.card.behaviour.declineCode, message: 'Your card was declined.' });
  }
  record.object.customer = customerId;
  state.emit('payment_method.attached', record.object, origin);
}

function needsAuthentication(record: PaymentMethodRecord, offSession: boolean): boolean {
  const { kind } = record.card.behaviour;
  if (kind === 'authentication_always') return true;
  if (kind === 'authentication_unless_set_up') return !offSession || !record.setUpForOffSession;
  return false;
}

function declineCodeOf(record: PaymentMethodRecord): string | undefined {
  const behaviour = record.card.behaviour;
  return behaviour.kind === 'declines_charges' || behaviour.kind === 'declines_on_attach' ? behaviour.declineCode : undefined;
}

/** The payment succeeded: money received; a card saved for later when setup_future_usage asks for it. */
function succeed(state: DoubleState, intent: Stripe.PaymentIntent, record: PaymentMethodRecord, origin: RequestOrigin, authenticated: boolean): void {
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.latest_charge = newId('ch');
  intent.last_payment_error = null;
  intent.next_action = null;
  intent.payment_method = record.object.id;
  if (intent.setup_future_usage === 'off_session') {
    if (authenticated || record.card.behaviour.kind !== 'authentication_unless_set_up') record.setUpForOffSession = true;
    if (typeof intent.customer === 'string' && !record.object.customer) attachPaymentMethod(state, record, intent.customer, origin);
  }
  state.emit('payment_intent.succeeded', intent, origin);
}

/** A declined or unauthenticated attempt leaves the PaymentIntent waiting for a new payment method. */
function fail(
  state: DoubleState, intent: Stripe.PaymentIntent, record: PaymentMethodRecord, origin: RequestOrigin,
  error: { code: string; declineCode?: string; message: string; type: 'card_error' | 'invalid_request_error' },
): string {
  const charge = newId('ch');
  intent.status = 'requires_payment_method';
  intent.latest_charge = charge;
  intent.next_action = null;
  intent.payment_method = null;
  intent.last_payment_error = {
    ...(error.type === 'card_error' ? { charge } : {}),
    code: error.code,
    ...(error.declineCode ? { decline_code: error.declineCode } : {}),
    doc_url: `https://docs.stripe.com/error-codes/${error.code.replace(/_/g, '-')}`,
    message: error.message,
    payment_method: structuredClone(record.object),
    type: error.type,
  };
  state.emit('payment_intent.payment_failed', intent, origin);
  return charge;
}

export interface ConfirmInput {
  paymentMethod?: string;
  offSession: boolean;
  returnUrl?: string;
  setupFutureUsage?: 'off_session' | 'on_session';
}

/** Confirms a PaymentIntent: succeeds, declines (402, saved on the intent), or asks for 3-D Secure. */
export function confirmPaymentIntent(state: DoubleState, intent: Stripe.PaymentIntent, input: ConfirmInput, origin: RequestOrigin): void {
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
    throw unexpectedState('payment_intent', intent.status, 'confirm');
  }
  const methodId = input.paymentMethod ?? (typeof intent.payment_method === 'string' ? intent.payment_method : undefined);
  if (!methodId) {
    throw invalidRequest(
      'You cannot confirm this PaymentIntent because it\'s missing a payment method. To confirm it, pass a payment_method or update the PaymentIntent first.',
      undefined, 'payment_intent_unexpected_state',
    );
  }
  const record = resolvePaymentMethod(state, methodId);
  const customer = typeof intent.customer === 'string' ? intent.customer : null;
  if (record.object.customer && record.object.customer !== customer) {
    throw invalidRequest(
      `The provided PaymentMethod belongs to a Customer, but you did not provide that Customer. Provide customer=${record.object.customer} to use it.`,
      'payment_method',
    );
  }
  if (input.setupFutureUsage) intent.setup_future_usage = input.setupFutureUsage;
  if (input.offSession && intent.setup_future_usage === 'on_session') {
    throw invalidRequest('You cannot set setup_future_usage to on_session when off_session is true.', 'setup_future_usage');
  }
  intent.payment_method = record.object.id;

  const declineCode = declineCodeOf(record);
  if (declineCode) {
    const message = DECLINE_MESSAGES[declineCode] ?? 'Your card was declined.';
    const charge = fail(state, intent, record, origin, { code: 'card_declined', declineCode, message, type: 'card_error' });
    throw cardError({ code: 'card_declined', declineCode, message, charge, paymentIntent: structuredClone(intent), paymentMethod: structuredClone(record.object) });
  }
  if (!needsAuthentication(record, input.offSession)) return succeed(state, intent, record, origin, false);
  if (input.offSession) {
    // Stripe's documented off-session outcome: a 402 and the intent back in requires_payment_method.
    const message = 'Your card was declined. This transaction requires authentication.';
    const charge = fail(state, intent, record, origin, { code: 'authentication_required', declineCode: 'authentication_required', message, type: 'card_error' });
    throw cardError({
      code: 'authentication_required', declineCode: 'authentication_required', message, charge,
      paymentIntent: structuredClone(intent), paymentMethod: structuredClone(record.object),
    });
  }
  intent.status = 'requires_action';
  intent.last_payment_error = null;
  if (input.returnUrl) {
    const challenge = state.startChallenge(intent.id, input.returnUrl);
    intent.next_action = { type: 'redirect_to_url', redirect_to_url: { url: state.challengeUrl(challenge), return_url: input.returnUrl } };
  } else {
    // Without a return_url Stripe expects Stripe.js to handle the action; the double has no Stripe.js.
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
  }
  state.emit('payment_intent.requires_action', intent, origin);
}

/** The cardholder finished (or failed) the challenge on the hosted 3-D Secure page. */
export function finishPaymentChallenge(state: DoubleState, intent: Stripe.PaymentIntent, passed: boolean): void {
  const record = typeof intent.payment_method === 'string' ? state.paymentMethods.get(intent.payment_method) : undefined;
  if (intent.status !== 'requires_action' || !record) return;
  if (passed) return succeed(state, intent, record, { id: null, idempotencyKey: null }, true);
  fail(state, intent, record, { id: null, idempotencyKey: null }, {
    code: 'payment_intent_authentication_failure', message: AUTHENTICATION_FAILURE, type: 'invalid_request_error',
  });
}

/** A SetupIntent confirmed with a card: attached and set up, refused, or waiting for 3-D Secure. */
export function confirmSetupIntent(
  state: DoubleState, intent: Stripe.SetupIntent, record: PaymentMethodRecord, returnUrl: string, checkoutSessionId?: string,
): { outcome: 'succeeded' } | { outcome: 'declined'; message: string } | { outcome: 'requires_action'; url: string } {
  intent.payment_method = record.object.id;
  const origin = { id: null, idempotencyKey: null };
  if (record.card.behaviour.kind === 'declines_on_attach') {
    const message = DECLINE_MESSAGES[record.card.behaviour.declineCode] ?? 'Your card was declined.';
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.last_setup_error = {
      code: 'card_declined', decline_code: record.card.behaviour.declineCode, message,
      payment_method: structuredClone(record.object), type: 'card_error',
      doc_url: 'https://docs.stripe.com/error-codes/card-declined',
    };
    state.emit('setup_intent.setup_failed', intent, origin);
    return { outcome: 'declined', message };
  }
  if (record.card.behaviour.kind === 'authentication_always' || record.card.behaviour.kind === 'authentication_unless_set_up') {
    const challenge = state.startChallenge(intent.id, returnUrl, checkoutSessionId);
    intent.status = 'requires_action';
    intent.next_action = { type: 'redirect_to_url', redirect_to_url: { url: state.challengeUrl(challenge), return_url: returnUrl } };
    state.emit('setup_intent.requires_action', intent, origin);
    return { outcome: 'requires_action', url: state.challengeUrl(challenge) };
  }
  completeSetup(state, intent, record);
  return { outcome: 'succeeded' };
}

function completeSetup(state: DoubleState, intent: Stripe.SetupIntent, record: PaymentMethodRecord): void {
  const origin = { id: null, idempotencyKey: null };
  intent.status = 'succeeded';
  intent.next_action = null;
  intent.last_setup_error = null;
  intent.payment_method = record.object.id;
  if (intent.usage === 'off_session') record.setUpForOffSession = true;
  if (typeof intent.customer === 'string') attachPaymentMethod(state, record, intent.customer, origin);
  state.emit('setup_intent.succeeded', intent, origin);
}

export function finishSetupChallenge(state: DoubleState, intent: Stripe.SetupIntent, passed: boolean): void {
  const record = typeof intent.payment_method === 'string' ? state.paymentMethods.get(intent.payment_method) : undefined;
  if (intent.status !== 'requires_action' || !record) return;
  if (passed) return completeSetup(state, intent, record);
  intent.status = 'requires_payment_method';
  intent.next_action = null;
  intent.payment_method = null;
  intent.last_setup_error = {
    code: 'setup_intent_authentication_failure', message: AUTHENTICATION_FAILURE, payment_method: structuredClone(record.object),
    type: 'invalid_request_error', doc_url: 'https://docs.stripe.com/error-codes/setup-intent-authentication-failure',
  };
  state.emit('setup_intent.setup_failed', intent, { id: null, idempotencyKey: null });
}
