// Murf error answers to the router's categories (status only).

import { describe, expect, it } from 'vitest';
import { classifyMurfError } from './murf-error.js';

const body = (status: number) => JSON.stringify({ errorMessage: 'never read', errorCode: status });

describe('classifyMurfError', () => {
  it('calls 400 and 422 client refusals', () => {
    expect(classifyMurfError(400, body(400))).toEqual({ category: 'invalid_request' });
    expect(classifyMurfError(422, '')).toEqual({ category: 'invalid_request' });
  });

  it.each([401, 402, 403, 404, 429, 500, 503])('leaves %i to its status category', (status) => {
    expect(classifyMurfError(status, body(status))).toEqual({});
  });

  it.each(['', 'not json', '[]', '{"errorCode":"x"}'])('never throws on %j', (text) => {
    expect(classifyMurfError(500, text)).toEqual({});
  });
});
