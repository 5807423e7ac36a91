// GET /v1/refunds/:id (refunds themselves are made through the double's controls, as from a dashboard).
import { Params } from '../params.js';
import { noSuchObject } from '../stripe-error.js';
import type { ApiRoute } from './api-route.js';

export const refundRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/refunds\/([^/]+)$/,
    handle(state, { params: query, ids }) {
      const params = new Params(query, []);
      const refund = state.refunds.get(ids[0]!);
      if (!refund) throw noSuchObject('refund', ids[0]!);
      return state.expand(refund, params.expand());
    },
  },
];
