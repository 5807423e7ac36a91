import { describe, expect, it } from 'vitest';
import { classifyAzureError } from './azure-error.js';

describe('classifyAzureError', () => {
  it('reports a 400 as a refused voice (the only free-form value in router-built SSML)', () => {
    expect(classifyAzureError(400, '')).toEqual({ category: 'invalid_request', field: 'voice' });
  });

  it('reports a 415 as the router own fault', () => {
    expect(classifyAzureError(415, '')).toEqual({ category: 'upstream_rejected_request' });
  });

  it.each([401, 403, 429, 500, 502, 503])('leaves %i to the status categories', (status) => {
    expect(classifyAzureError(status, '{"error":{"code":"401","message":"Access denied"}}')).toEqual({});
  });

  it('never throws on garbage', () => {
    for (const body of ['', '{', 'null', '\u0000\uFFFF', '{"error": 5}']) expect(() => classifyAzureError(418, body)).not.toThrow();
  });
});
