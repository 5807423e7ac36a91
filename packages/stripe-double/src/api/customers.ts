// POST /v1/customers, GET /v1/customers/:id, GET /v1/customers/:id/payment_methods.
import { buildCustomer } from '../objects.js';
import { Params } from '../params.js';
import type { DoubleState } from '../state.js';
import { invalidParameter, noSuchObject } from '../stripe-error.js';
import { listObject, type ApiRoute } from './api-route.js';

function customerOr404(state: DoubleState, id: string) {
  const customer = state.customers.get(id);
  if (!customer) throw noSuchObject('customer', id);
  return customer;
}

export const customerRoutes: ApiRoute[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/customers$/,
    handle(state, { params: body, origin }) {
      const params = new Params(body, ['name', 'email', 'description', 'metadata']);
      const customer = buildCustomer({
        name: params.string('name'), email: params.string('email'), description: params.string('description'), metadata: params.metadata(),
      });
      state.customers.set(customer.id, customer);
      state.emit('customer.created', customer, origin);
      return customer;
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, []);
      return state.expand(customerOr404(state, ids[0]!), params.expand());
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/customers\/([^/]+)\/payment_methods$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, ['type', 'limit', 'starting_after', 'ending_before', 'allow_redisplay']);
      const customer = customerOr404(state, ids[0]!);
      const limit = params.integer('limit') ?? 10;
      if (limit < 1 || limit > 100) throw invalidParameter('This value must be between 1 and 100.', 'limit');
      const type = params.string('type');
      // Newest first, as Stripe lists them.
      const methods = [...state.paymentMethods.values()]
        .map((record) => record.object)
        .filter((method) => method.customer === customer.id && (!type || method.type === type))
        .reverse();
      return listObject(`/v1/customers/${customer.id}/payment_methods`, methods, limit);
    },
  },
];
