// OpenAI error bodies to upstream codes and retryability.

import { describe, expect, it } from 'vitest';
import { parseOpenAIErrorBody } from './openai-error.js';

describe('parseOpenAIErrorBody', () => {
  it('takes error.code', () => {
    const body = JSON.stringify({ error: { message: 'Incorrect API key provided: sk-****WXYZ', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    expect(parseOpenAIErrorBody(401, body)).toEqual({ upstreamCode: 'invalid_api_key' });
  });

  it('falls back to error.type when code is null', () => {
    const body = JSON.stringify({ error: { message: 'boom', type: 'server_error', param: null, code: null } });
    expect(parseOpenAIErrorBody(500, body)).toEqual({ upstreamCode: 'server_error' });
  });

  it('marks insufficient_quota as not retryable even though it is a 429', () => {
    const body = JSON.stringify({ error: { message: 'quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });
    expect(parseOpenAIErrorBody(429, body)).toEqual({ upstreamCode: 'insufficient_quota', isRetryable: false });
  });

  it.each(['', 'not json', '<html>502 Bad Gateway</html>', 'null', '[]', '{"error":"text"}'])('returns nothing for %j', (body) => {
    expect(parseOpenAIErrorBody(502, body)).toEqual({});
  });
});
