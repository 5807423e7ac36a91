// Deepgram error answers to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyDeepgramError } from './deepgram-error.js';

const legacy = (code: string) => JSON.stringify({ err_code: code, err_msg: 'never read', request_id: 'r' });
const modern = JSON.stringify({ category: 'INVALID_JSON', message: 'never read', details: 'x', request_id: 'r' });

describe('classifyDeepgramError', () => {
  it('calls 400/415/422 with a Deepgram body client refusals, and 413 an input over the limit', () => {
    expect(classifyDeepgramError(400, legacy('Bad Request'))).toEqual({ category: 'invalid_request' });
    expect(classifyDeepgramError(400, modern)).toEqual({ category: 'invalid_request' });
    expect(classifyDeepgramError(415, legacy('UNSUPPORTED_MEDIA_TYPE'))).toEqual({ category: 'invalid_request' });
    expect(classifyDeepgramError(422, modern)).toEqual({ category: 'invalid_request' });
    expect(classifyDeepgramError(413, legacy('PAYLOAD_TOO_LARGE'))).toEqual({ category: 'invalid_request', field: 'input' });
  });

  it('recognises an exhausted project', () => {
    expect(classifyDeepgramError(402, legacy('ASR_PAYMENT_REQUIRED'))).toEqual({ category: 'upstream_quota_exceeded' });
  });

  it('leaves auth, rate limits and server errors to the status category', () => {
    expect(classifyDeepgramError(401, legacy('INVALID_AUTH'))).toEqual({});
    expect(classifyDeepgramError(429, legacy('TOO_MANY_REQUESTS'))).toEqual({});
    expect(classifyDeepgramError(503, legacy('SERVICE_UNAVAILABLE'))).toEqual({});
  });

  it.each(['', 'not json', '[]', '{"err_code":42}', '<html>Bad Request</html>'])('returns nothing for %j, even at 400', (text) => {
    expect(classifyDeepgramError(400, text)).toEqual({});
    expect(classifyDeepgramError(500, text)).toEqual({});
  });
});
