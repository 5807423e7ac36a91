// GET /v1/payment_methods/:id and POST /v1/payment_methods/:id/attach. Attaching a `pm_card_*`
// token attaches a fresh PaymentMethod made from it, as Stripe's test mode does.
import { Params } from '../params.js';
import { attachPaymentMethod, resolvePaymentMethod } from '../payments.js';
import { noSuchObject } from '../stripe-error.js';
import type { ApiRoute } from './api-route.js';

export const paymentMethodRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/payment_methods\/([^/]+)$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, []);
      const record = state.paymentMethods.get(ids[0]!);
      if (!record) throw noSuchObject('PaymentMethod', ids[0]!);
      return state.expand(record.object, params.expand());
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/payment_methods\/([^/]+)\/attach$/,
    handle(state, { params: body, ids, origin }) {
      const params = new Params(body, ['customer']);
      const customerId = params.requiredString('customer');
      if (!state.customers.has(customerId)) throw noSuchObject('customer', customerId, 'customer', 400);
      const record = resolvePaymentMethod(state, ids[0]!, 'payment_method');
      attachPaymentMethod(state, record, customerId, origin);
      return state.expand(record.object, params.expand());
    },
  },
];
