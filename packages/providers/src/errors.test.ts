// Retryability, status categories, token hygiene and safe error messages.

import { describe, expect, it } from 'vitest';
import {
  categoryForStatus,
  isRetryableCategory,
  isRetryableStatus,
  ProviderError,
  sanitizeToken,
  UPSTREAM_FAILURE_CATEGORIES,
  UpstreamInvalidRequestError,
  InvalidSpeechRequestError,
} from './errors.js';

describe('errors', () => {
  it.each([
    [408, true], [409, true], [429, true], [500, true], [503, true], [599, true],
    [400, false], [401, false], [403, false], [404, false], [422, false],
  ])('status %i retryable: %s', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });

  it.each([
    [401, 'upstream_auth_failed'], [403, 'upstream_auth_failed'], [402, 'upstream_quota_exceeded'],
    [429, 'upstream_rate_limited'], [500, 'upstream_server_error'], [503, 'upstream_server_error'],
    [408, 'upstream_server_error'], [404, 'upstream_rejected_request'], [400, 'upstream_rejected_request'],
  ] as const)('status %i falls in category %s', (status, category) => {
    expect(categoryForStatus(status)).toBe(category);
  });

  it('retries exactly the transient categories', () => {
    const retryable = UPSTREAM_FAILURE_CATEGORIES.filter(isRetryableCategory);
    expect(retryable).toEqual(['upstream_server_error', 'upstream_rate_limited', 'upstream_network_error', 'upstream_timeout']);
  });

  it('keeps only short slug-like local tokens', () => {
    expect(sanitizeToken('ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(sanitizeToken('Incorrect API key provided: sk-abc')).toBeUndefined();
    expect(sanitizeToken('x'.repeat(65))).toBeUndefined();
    expect(sanitizeToken({ code: 'x' })).toBeUndefined();
  });

  it('builds messages from the category and status only', () => {
    const error = new ProviderError({ provider: 'openai', kind: 'http', category: 'upstream_rate_limited', statusCode: 429, isRetryable: true });
    expect(error.message).toBe('openai: upstream answered HTTP 429 (upstream_rate_limited)');
    expect(error).toMatchObject({ provider: 'openai', statusCode: 429, isRetryable: true, kind: 'http', name: 'ProviderError' });
    expect(Object.keys(error)).not.toContain('upstreamCode');
  });

  it('words a client refusal from the field alone, as an InvalidSpeechRequestError', () => {
    const refusal = new UpstreamInvalidRequestError('elevenlabs', 404, 'voice');
    expect(refusal).toBeInstanceOf(InvalidSpeechRequestError);
    expect(refusal.details).toBe('elevenlabs refused the value of voice');
    expect(new UpstreamInvalidRequestError('cartesia', 400).details).toBe('cartesia refused the request; check model, voice, input and provider_options');
  });
});
