// POST /v1/payment_intents (with confirm), GET /v1/payment_intents/:id, POST …/:id/confirm.
import { buildPaymentIntent } from '../objects.js';
import { Params } from '../params.js';
import { confirmPaymentIntent, resolvePaymentMethod } from '../payments.js';
import type { DoubleState } from '../state.js';
import { invalidParameter, missingParameter, noSuchObject } from '../stripe-error.js';
import type { ApiRoute } from './api-route.js';

const MINIMUM_CENTS = 50;
const MAXIMUM_CENTS = 99_999_999;

function intentOr404(state: DoubleState, id: string) {
  const intent = state.paymentIntents.get(id);
  if (!intent) throw noSuchObject('payment_intent', id);
  return intent;
}

function offSessionOf(params: Params): boolean {
  const text = params.string('off_session');
  if (text === undefined || text === 'false') return false;
  if (text === 'true' || text === 'one_off' || text === 'recurring') return true;
  throw invalidParameter(`Invalid off_session: ${text}`, 'off_session');
}

export const paymentIntentRoutes: ApiRoute[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/payment_intents$/,
    handle(state, { params: body, origin }) {
      const params = new Params(body, [
        'amount', 'currency', 'customer', 'payment_method', 'confirm', 'off_session', 'return_url', 'description', 'metadata',
        'allowed_payment_method_types', 'setup_future_usage', 'error_on_requires_action',
      ]);
      const amount = params.integer('amount');
      if (amount === undefined) throw missingParameter('amount');
      const currency = params.requiredString('currency').toLowerCase();
      if (currency !== 'usd') throw invalidParameter(`The double supports usd only, not ${currency}.`, 'currency');
      if (amount < MINIMUM_CENTS) {
        throw invalidParameter('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
      }
      if (amount > MAXIMUM_CENTS) throw invalidParameter('Amount must be no more than $999,999.99', 'amount', 'amount_too_large');
      const customer = params.string('customer') ?? null;
      if (customer && !state.customers.has(customer)) throw noSuchObject('customer', customer, 'customer', 400);
      const confirm = params.boolean('confirm') ?? false;
      const offSession = offSessionOf(params);
      if (offSession && !confirm) throw invalidParameter('off_session can only be used when confirm=true.', 'off_session');
      const paymentMethod = params.string('payment_method');
      const setupFutureUsage = params.enumeration('setup_future_usage', ['off_session', 'on_session'] as const) ?? null;
      const intent = buildPaymentIntent({
        amount, currency, customer, description: params.string('description') ?? null, metadata: params.metadata(),
        paymentMethod: null, setupFutureUsage, allowedPaymentMethodTypes: params.stringArray('allowed_payment_method_types') ?? null,
      });
      state.paymentIntents.set(intent.id, intent);
      if (paymentMethod && !confirm) {
        intent.payment_method = resolvePaymentMethod(state, paymentMethod).object.id;
        intent.status = 'requires_confirmation';
      }
      state.emit('payment_intent.created', intent, origin);
      if (confirm) confirmPaymentIntent(state, intent, { paymentMethod, offSession, returnUrl: params.string('return_url') }, origin);
      return state.expand(intent, params.expand());
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/payment_intents\/([^/]+)$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, ['client_secret']);
      return state.expand(intentOr404(state, ids[0]!), params.expand());
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
    handle(state, { params: body, ids, origin }) {
      const params = new Params(body, [
        'payment_method', 'off_session', 'return_url', 'setup_future_usage', 'error_on_requires_action', 'allowed_payment_method_types',
      ]);
      const intent = intentOr404(state, ids[0]!);
      confirmPaymentIntent(state, intent, {
        paymentMethod: params.string('payment_method'),
        offSession: offSessionOf(params),
        returnUrl: params.string('return_url'),
        setupFutureUsage: params.enumeration('setup_future_usage', ['off_session', 'on_session'] as const),
      }, origin);
      return state.expand(intent, params.expand());
    },
  },
];
