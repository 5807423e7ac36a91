// LMNT error answers to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyLmntError } from './lmnt-error.js';

const body = (type: string) => JSON.stringify({ error: { type, message: 'never read' } });

describe('classifyLmntError', () => {
  it('pins a missing voice and calls invalid requests client refusals', () => {
    expect(classifyLmntError(404, body('not_found_error'))).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyLmntError(400, body('invalid_request_error'))).toEqual({ category: 'invalid_request' });
    expect(classifyLmntError(422, '{"detail":[{"loc":["body","text"]}]}')).toEqual({ category: 'invalid_request' });
  });

  it('recognises an exhausted account', () => {
    expect(classifyLmntError(402, body('payment_required_error'))).toEqual({ category: 'upstream_quota_exceeded' });
  });

  it('leaves auth, rate limits, server errors and unknown routes to the status category', () => {
    expect(classifyLmntError(401, body('authentication_error'))).toEqual({});
    expect(classifyLmntError(429, body('rate_limit_error'))).toEqual({});
    expect(classifyLmntError(500, body('internal_server_error'))).toEqual({});
    expect(classifyLmntError(404, '{"detail":"Not Found"}')).toEqual({});
  });

  it.each(['', 'not json', '[]', '{"error":"text"}', '{"error":{"type":42}}'])('returns nothing for %j at 500', (text) => {
    expect(classifyLmntError(500, text)).toEqual({});
  });
});
