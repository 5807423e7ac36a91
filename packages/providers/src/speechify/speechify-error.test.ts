// Speechify error answers to the router's categories.

import { describe, expect, it } from 'vitest';
import { classifySpeechifyError } from './speechify-error.js';

describe('classifySpeechifyError', () => {
  it('pins a 404 in Speechify\'s {error} body on the voice, but not a route 404', () => {
    expect(classifySpeechifyError(404, '{"error":"never read"}')).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifySpeechifyError(404, '{"message":"Not Found"}')).toEqual({});
    expect(classifySpeechifyError(404, 'Not Found')).toEqual({});
  });

  it('calls 400, 413 and 422 client refusals', () => {
    for (const status of [400, 413, 422]) expect(classifySpeechifyError(status, '{"error":"x"}')).toEqual({ category: 'invalid_request' });
  });

  it('leaves auth, balance, rate limits and server errors to the status category', () => {
    for (const status of [401, 402, 403, 429, 500, 503]) expect(classifySpeechifyError(status, '{"error":"x"}')).toEqual({});
  });

  it.each(['', 'garbage', '[]', 'null', '{"error":{"nested":true}}'])('never throws on %j', (text) => {
    expect(() => classifySpeechifyError(404, text)).not.toThrow();
    expect(classifySpeechifyError(500, text)).toEqual({});
  });
});
