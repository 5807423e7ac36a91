// Neuphonic error answers to the router's categories.

import { describe, expect, it } from 'vitest';
import { classifyNeuphonicError } from './neuphonic-error.js';

describe('classifyNeuphonicError', () => {
  it('calls 400 and 422 answers client refusals without naming a field', () => {
    expect(classifyNeuphonicError(422, '{"detail":[{"loc":["body","lang_code"],"msg":"x","type":"value_error"}]}')).toEqual({ category: 'invalid_request' });
    expect(classifyNeuphonicError(400, '{"detail":"x"}')).toEqual({ category: 'invalid_request' });
  });

  it('leaves 404 (a missing voice and a wrong route look alike), auth, quota, rate limits and server errors to the status', () => {
    for (const status of [401, 402, 403, 404, 429, 500, 503]) expect(classifyNeuphonicError(status, '{"detail":"x"}')).toEqual({});
  });

  it.each(['', 'garbage', '[]', 'null'])('never throws on %j', (text) => {
    expect(classifyNeuphonicError(500, text)).toEqual({});
  });
});
