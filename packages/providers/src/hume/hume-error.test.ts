// Hume error answers to the router's categories.

import { describe, expect, it } from 'vitest';
import { classifyHumeError } from './hume-error.js';

describe('classifyHumeError', () => {
  it('calls 400 and validation 422 answers client refusals', () => {
    expect(classifyHumeError(400, '{"code":"E4000","error":"Bad Request","message":"never read"}')).toEqual({ category: 'invalid_request' });
    expect(classifyHumeError(422, '{"detail":[{"loc":["body","utterances"],"msg":"x","type":"missing"}]}')).toEqual({ category: 'invalid_request' });
  });

  it('pins a 404 in Hume\'s error object on the voice, but not a route 404', () => {
    expect(classifyHumeError(404, '{"code":"E4040","error":"Not Found","message":"never read"}')).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyHumeError(404, '{"detail":"Not Found"}')).toEqual({});
  });

  it('leaves auth, quota, rate limits, routes and server errors to the status category', () => {
    for (const status of [401, 402, 429, 500, 503]) expect(classifyHumeError(status, '{"error":"x","message":"y"}')).toEqual({});
    expect(classifyHumeError(422, '{"detail":"not a list"}')).toEqual({});
  });

  it.each(['', 'garbage', '[]', 'null'])('returns nothing for %j at 500', (text) => {
    expect(classifyHumeError(500, text)).toEqual({});
  });
});
