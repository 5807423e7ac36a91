// MiniMax error answers (mostly HTTP 200 with base_resp) to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyMiniMaxError } from './minimax-error.js';

const base = (code: unknown) => JSON.stringify({ trace_id: 't', base_resp: { status_code: code, status_msg: 'never read' } });

describe('classifyMiniMaxError', () => {
  it.each([
    [1004, { category: 'upstream_auth_failed' }],
    [2049, { category: 'upstream_auth_failed' }],
    [1002, { category: 'upstream_rate_limited' }],
    [1039, { category: 'upstream_rate_limited' }],
    [1041, { category: 'upstream_rate_limited' }],
    [1008, { category: 'upstream_quota_exceeded' }],
    [1028, { category: 'upstream_quota_exceeded' }],
    [1000, { category: 'upstream_server_error' }],
    [1001, { category: 'upstream_server_error' }],
    [1026, { category: 'invalid_request', field: 'input' }],
    [1027, { category: 'invalid_request', field: 'input' }],
    [20132, { category: 'invalid_request', field: 'voice' }],
    [2054, { category: 'invalid_request', field: 'voice' }],
    [2061, { category: 'invalid_request', field: 'model' }],
    [2013, { category: 'invalid_request' }],
  ])('classifies base_resp %i inside an HTTP 200', (code, expected) => {
    expect(classifyMiniMaxError(200, base(code))).toEqual(expected);
  });

  it('leaves an HTTP 200 with no or an unknown code to upstream_bad_response (no audio)', () => {
    expect(classifyMiniMaxError(200, base(0))).toEqual({});
    expect(classifyMiniMaxError(200, base(99999))).toEqual({});
    expect(classifyMiniMaxError(200, '{"data":null}')).toEqual({});
  });

  it('reads gateway errors: code first, then error.type, then the status', () => {
    expect(classifyMiniMaxError(401, JSON.stringify({ error: { type: 'authentication_error' }, base_resp: { status_code: 1004 } }))).toEqual({ category: 'upstream_auth_failed' });
    expect(classifyMiniMaxError(402, JSON.stringify({ error: { type: 'insufficient_balance_error', message: 'x' } }))).toEqual({ category: 'upstream_quota_exceeded' });
    expect(classifyMiniMaxError(400, '{"error":{"type":"bad_request_error"}}')).toEqual({ category: 'invalid_request' });
    expect(classifyMiniMaxError(503, '{}')).toEqual({});
  });

  it.each(['', 'not json', '[]', '{"base_resp":null}', '{"base_resp":{"status_code":"1004"}}'])('never throws on %j', (text) => {
    expect(classifyMiniMaxError(500, text)).toEqual({});
  });
});
