// Resemble error answers to the router's categories.

import { describe, expect, it } from 'vitest';
import { classifyResembleError } from './resemble-error.js';

describe('classifyResembleError', () => {
  it('pins a 404 in Resemble\'s {success: false} body on the voice, but not a route 404', () => {
    expect(classifyResembleError(404, '{"success":false,"message":"never read"}')).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyResembleError(404, '{"error":"Not Found"}')).toEqual({});
    expect(classifyResembleError(404, '<html>')).toEqual({});
  });

  it('calls 400 and 422 client refusals', () => {
    expect(classifyResembleError(400, '{"success":false,"message":"x"}')).toEqual({ category: 'invalid_request' });
    expect(classifyResembleError(422, '')).toEqual({ category: 'invalid_request' });
  });

  it('leaves auth, balance, rate limits and server errors to the status category', () => {
    for (const status of [401, 402, 403, 429, 500, 503]) expect(classifyResembleError(status, '{"success":false,"message":"x"}')).toEqual({});
  });

  it.each(['', 'garbage', '[]', 'null', '{"success":"false"}'])('never throws on %j', (text) => {
    expect(() => classifyResembleError(404, text)).not.toThrow();
    expect(classifyResembleError(500, text)).toEqual({});
  });
});
