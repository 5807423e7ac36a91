// OpenAI error answers to the router's categories and request fields.

import { describe, expect, it } from 'vitest';
import { classifyOpenAIError } from './openai-error.js';

const body = (error: Record<string, unknown>) => JSON.stringify({ error: { message: 'text that must never be used', ...error } });

describe('classifyOpenAIError', () => {
  it.each([
    [400, { type: 'invalid_request_error', param: 'voice', code: 'invalid_value' }, 'voice'],
    [400, { type: 'invalid_request_error', param: 'voice.id', code: null }, 'voice'],
    [400, { type: 'invalid_request_error', param: 'input', code: 'string_above_max_length' }, 'input'],
    [400, { type: 'invalid_request_error', param: 'speed', code: 'invalid_value' }, 'speed'],
    [400, { type: 'invalid_request_error', param: 'instructions', code: null }, 'instructions'],
    [400, { type: 'invalid_request_error', param: 'response_format', code: 'invalid_value' }, 'response_format'],
    [404, { type: 'invalid_request_error', param: null, code: 'model_not_found' }, 'model'],
  ])('pins a %i with %j on the field %s', (status, error, field) => {
    expect(classifyOpenAIError(status, body(error))).toEqual({ category: 'invalid_request', field });
  });

  it('calls a 400 with an unknown or missing param a client refusal without naming upstream text', () => {
    expect(classifyOpenAIError(400, body({ type: 'invalid_request_error', param: 'stream_format', code: 'x' }))).toEqual({ category: 'invalid_request' });
    expect(classifyOpenAIError(400, body({ type: 'invalid_request_error', param: null, code: null }))).toEqual({ category: 'invalid_request' });
  });

  it('leaves a 404 that is not model_not_found (a wrong base URL) to the status category', () => {
    expect(classifyOpenAIError(404, body({ type: 'invalid_request_error', param: null, code: null }))).toEqual({});
  });

  it('marks insufficient_quota 429s as quota exhaustion, other 429s as plain rate limits', () => {
    expect(classifyOpenAIError(429, body({ type: 'insufficient_quota', param: null, code: 'insufficient_quota' }))).toEqual({ category: 'upstream_quota_exceeded' });
    expect(classifyOpenAIError(429, body({ type: 'requests', param: null, code: 'rate_limit_exceeded' }))).toEqual({});
  });

  it('leaves auth and server errors to the status category', () => {
    expect(classifyOpenAIError(401, body({ type: 'invalid_request_error', param: null, code: 'invalid_api_key' }))).toEqual({});
    expect(classifyOpenAIError(500, body({ type: 'server_error', param: null, code: null }))).toEqual({});
  });

  it.each(['', 'not json', '<html>502 Bad Gateway</html>', 'null', '[]', '{"error":"text"}'])('returns nothing for %j', (text) => {
    expect(classifyOpenAIError(502, text)).toEqual({});
    expect(classifyOpenAIError(400, text)).toEqual({});
  });
});
