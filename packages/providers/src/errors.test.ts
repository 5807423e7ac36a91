// Retryability by status, upstream token hygiene and safe error messages.

import { describe, expect, it } from 'vitest';
import { isRetryableStatus, ProviderError, sanitizeUpstreamToken } from './errors.js';

describe('errors', () => {
  it.each([
    [408, true], [409, true], [429, true], [500, true], [503, true], [599, true],
    [400, false], [401, false], [403, false], [404, false], [422, false],
  ])('status %i retryable: %s', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });

  it('keeps only short slug-like upstream tokens', () => {
    expect(sanitizeUpstreamToken('invalid_api_key')).toBe('invalid_api_key');
    expect(sanitizeUpstreamToken('Incorrect API key provided: sk-abc')).toBeUndefined();
    expect(sanitizeUpstreamToken('x'.repeat(65))).toBeUndefined();
    expect(sanitizeUpstreamToken({ code: 'x' })).toBeUndefined();
  });

  it('builds messages from safe fields only', () => {
    const error = new ProviderError({ provider: 'openai', kind: 'http', statusCode: 429, isRetryable: true, upstreamCode: 'rate_limit_exceeded' });
    expect(error.message).toBe('openai: upstream answered HTTP 429 (rate_limit_exceeded)');
    expect(error).toMatchObject({ provider: 'openai', statusCode: 429, isRetryable: true, kind: 'http', name: 'ProviderError' });
  });
});
