// Cartesia error bodies (JSON and legacy plain text) to upstream codes.

import { describe, expect, it } from 'vitest';
import { parseCartesiaErrorBody } from './cartesia-error.js';

describe('parseCartesiaErrorBody', () => {
  it('takes error_code', () => {
    const body = JSON.stringify({ error_code: 'concurrency_limited', title: 'Too many concurrent requests', message: 'x', request_id: 'r' });
    expect(parseCartesiaErrorBody(429, body)).toEqual({ upstreamCode: 'concurrency_limited' });
  });

  it('falls back to a slug of the title when error_code is null', () => {
    const body = JSON.stringify({ error_code: null, title: 'Unauthorized', message: 'The API key sk_car_secret is invalid', request_id: 'r' });
    expect(parseCartesiaErrorBody(401, body)).toEqual({ upstreamCode: 'unauthorized' });
  });

  it('reads the title of plain-text errors from old API versions, dropping the message', () => {
    expect(parseCartesiaErrorBody(429, 'Too many concurrent requests: slow down, key sk_car_x')).toEqual({
      upstreamCode: 'too_many_concurrent_requests',
    });
  });

  it.each(['', 'no colon here', '{"title":' + '"' + 'x'.repeat(100) + '"}'])('returns nothing for %j', (body) => {
    expect(parseCartesiaErrorBody(500, body)).toEqual({});
  });
});
