// ElevenLabs error bodies (object, validation array, string) to upstream codes.

import { describe, expect, it } from 'vitest';
import { parseElevenLabsErrorBody } from './elevenlabs-error.js';

describe('parseElevenLabsErrorBody', () => {
  it('takes detail.status', () => {
    const body = JSON.stringify({ detail: { status: 'quota_exceeded', message: 'You have 0 credits left' } });
    expect(parseElevenLabsErrorBody(401, body)).toEqual({ upstreamCode: 'quota_exceeded' });
  });

  it('takes detail.code from the newer shape', () => {
    const body = JSON.stringify({ detail: { type: 'rate_limit_error', code: 'concurrent_limit_exceeded', message: 'x', request_id: 'r' } });
    expect(parseElevenLabsErrorBody(429, body)).toEqual({ upstreamCode: 'concurrent_limit_exceeded' });
  });

  it('reports FastAPI validation arrays as validation_error', () => {
    const body = JSON.stringify({ detail: [{ type: 'missing', loc: ['body', 'text'], msg: 'Field required' }] });
    expect(parseElevenLabsErrorBody(422, body)).toEqual({ upstreamCode: 'validation_error' });
  });

  it.each(['{"detail":"Not Found"}', 'gateway timeout', '', '{}'])('returns nothing for %j', (body) => {
    expect(parseElevenLabsErrorBody(404, body)).toEqual({});
  });
});
