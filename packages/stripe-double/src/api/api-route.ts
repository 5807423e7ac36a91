// The shape of one API endpoint of the double: a method, a path pattern and a handler that reads
// the decoded parameters and returns a Stripe object (or throws a StripeApiError).
import type { FormObject } from '../form-body.js';
import type { DoubleState, RequestOrigin } from '../state.js';

export interface ApiRequest {
  /** The form body for POST, the query string for GET, decoded the same way. */
  params: FormObject;
  origin: RequestOrigin;
  /** Path parameters captured by the route's pattern. */
  ids: string[];
}

export interface ApiRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle(state: DoubleState, request: ApiRequest): object;
}

export function listObject<T>(url: string, items: T[], limit: number): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit, url };
}
