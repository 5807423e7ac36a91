// POST /v1/checkout/sessions (setup mode: a hosted page that saves a card) and GET …/:id.
import { buildSetupIntent } from '../objects.js';
import { buildSetupCheckoutSession } from '../more-objects.js';
import { Params } from '../params.js';
import { invalidParameter, missingParameter, noSuchObject } from '../stripe-error.js';
import type { ApiRoute } from './api-route.js';

export const checkoutSessionRoutes: ApiRoute[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/checkout\/sessions$/,
    handle(state, { params: body, origin }) {
      const params = new Params(body, [
        'mode', 'customer', 'success_url', 'cancel_url', 'currency', 'allowed_payment_method_types', 'metadata', 'client_reference_id',
        'setup_intent_data',
      ]);
      const mode = params.enumeration('mode', ['payment', 'setup', 'subscription'] as const);
      if (!mode) throw missingParameter('mode');
      if (mode !== 'setup') throw invalidParameter('The double implements Checkout in setup mode only.', 'mode');
      const successUrl = params.requiredString('success_url');
      for (const [name, url] of [['success_url', successUrl], ['cancel_url', params.string('cancel_url')]] as const) {
        if (url !== undefined && !/^https?:\/\/[^\s]+$/.test(url)) throw invalidParameter(`Not a valid URL`, name, 'url_invalid');
      }
      const currency = params.string('currency') ?? null;
      const paymentMethodTypes = params.stringArray('allowed_payment_method_types');
      if (!currency && !paymentMethodTypes) {
        throw invalidParameter('You must provide `currency` or `allowed_payment_method_types` when creating a Checkout Session in setup mode.', 'currency');
      }
      const customer = params.string('customer') ?? null;
      if (customer && !state.customers.has(customer)) throw noSuchObject('customer', customer, 'customer', 400);
      const setupIntentData = body.setup_intent_data;
      const setupMetadata = setupIntentData && typeof setupIntentData === 'object' && !Array.isArray(setupIntentData)
        ? new Params(setupIntentData, ['metadata', 'description']).metadata()
        : {};
      const setupIntent = buildSetupIntent({ customer, metadata: setupMetadata, usage: 'off_session' });
      state.setupIntents.set(setupIntent.id, setupIntent);
      const session = buildSetupCheckoutSession({
        baseUrl: state.baseUrl(), customer, setupIntent: setupIntent.id, successUrl, cancelUrl: params.string('cancel_url') ?? null,
        currency, allowedPaymentMethodTypes: paymentMethodTypes ?? null, metadata: params.metadata(),
        clientReferenceId: params.string('client_reference_id') ?? null,
      });
      state.checkoutSessions.set(session.id, session);
      state.emit('setup_intent.created', setupIntent, origin);
      return state.expand(session, params.expand());
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, []);
      const session = state.checkoutSessions.get(ids[0]!);
      if (!session) throw noSuchObject('checkout.session', ids[0]!);
      return state.expand(session, params.expand());
    },
  },
];
