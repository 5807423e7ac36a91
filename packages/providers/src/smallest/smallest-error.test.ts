// Smallest.ai error answers to the router's categories (by status only).

import { describe, expect, it } from 'vitest';
import { classifySmallestError } from './smallest-error.js';

describe('classifySmallestError', () => {
  it('calls 400, 413 and 422 client refusals without naming a field', () => {
    for (const status of [400, 413, 422]) expect(classifySmallestError(status, '{"message":"never read"}')).toEqual({ category: 'invalid_request' });
  });

  it('leaves auth, quota, rate limits, routes and server errors to the status category', () => {
    for (const status of [401, 402, 403, 404, 429, 500, 502, 503]) expect(classifySmallestError(status, '{"message":"x"}')).toEqual({});
  });

  it.each(['', 'garbage', '[]', 'null'])('never throws on %j', (text) => {
    expect(classifySmallestError(500, text)).toEqual({});
  });
});
