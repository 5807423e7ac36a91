// Cartesia error answers (JSON and legacy plain text) to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyCartesiaError } from './cartesia-error.js';

const json = (body: Record<string, unknown>) => JSON.stringify({ message: 'never read', request_id: 'r', ...body });

describe('classifyCartesiaError', () => {
  it('pins known codes and titles on a field', () => {
    expect(classifyCartesiaError(400, json({ error_code: 'model_sunsetted', title: 'Invalid request' }))).toEqual({ category: 'invalid_request', field: 'model' });
    expect(classifyCartesiaError(404, json({ error_code: null, title: 'Voice not found' }))).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyCartesiaError(404, 'Voice not found: no voice with id x')).toEqual({ category: 'invalid_request', field: 'voice' });
  });

  it('calls any other 400 a client refusal without a field', () => {
    expect(classifyCartesiaError(400, json({ error_code: null, title: 'Invalid request' }))).toEqual({ category: 'invalid_request' });
    expect(classifyCartesiaError(400, 'Bad Request: language and locale are mutually exclusive')).toEqual({ category: 'invalid_request' });
  });

  it('blames the router, not the client, for a refused version header', () => {
    expect(classifyCartesiaError(400, json({ error_code: null, title: 'Invalid Cartesia-Version' }))).toEqual({ category: 'upstream_rejected_request' });
  });

  it('recognises quota exhaustion and leaves 401, 429, 5xx and routing 404s to the status category', () => {
    expect(classifyCartesiaError(402, json({ error_code: 'insufficient_credits', title: 'Payment required' }))).toEqual({ category: 'upstream_quota_exceeded' });
    expect(classifyCartesiaError(401, json({ error_code: null, title: 'Unauthorized' }))).toEqual({});
    expect(classifyCartesiaError(429, json({ error_code: 'concurrency_limited', title: 'Too many concurrent requests' }))).toEqual({});
    expect(classifyCartesiaError(500, 'Internal server error: boom')).toEqual({});
    expect(classifyCartesiaError(404, json({ error_code: null, title: 'Not Found' }))).toEqual({});
  });

  it.each(['', 'no colon here', '{"title":' + '"' + 'x'.repeat(100) + '"}'])('returns nothing for %j at 500', (body) => {
    expect(classifyCartesiaError(500, body)).toEqual({});
  });
});
