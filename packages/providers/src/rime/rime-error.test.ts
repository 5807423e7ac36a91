// Rime error answers to the router's categories (status only: the body is undocumented).

import { describe, expect, it } from 'vitest';
import { classifyRimeError } from './rime-error.js';

describe('classifyRimeError', () => {
  it('calls 400 and 422 client refusals without a field', () => {
    expect(classifyRimeError(400, '{"message":"never read"}')).toEqual({ category: 'invalid_request' });
    expect(classifyRimeError(422, 'garbage')).toEqual({ category: 'invalid_request' });
  });

  it.each([401, 402, 403, 404, 429, 500, 503])('leaves %i to the status category', (status) => {
    expect(classifyRimeError(status, '{"message":"x"}')).toEqual({});
  });
});
