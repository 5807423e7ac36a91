// Fish Audio error answers to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyFishError } from './fish-error.js';

describe('classifyFishError', () => {
  it('pins a 404 in Fish shape on the voice, not a route 404', () => {
    expect(classifyFishError(404, '{"status":404,"message":"never read"}')).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyFishError(404, '{"detail":"Not Found"}')).toEqual({});
  });

  it('calls 400 and 422 client refusals', () => {
    expect(classifyFishError(422, '[{"loc":["body","text"],"type":"missing","msg":"x"}]')).toEqual({ category: 'invalid_request' });
    expect(classifyFishError(400, '{"status":400,"message":"x"}')).toEqual({ category: 'invalid_request' });
  });

  it.each([401, 402, 429, 500, 502])('leaves %i to the status category', (status) => {
    expect(classifyFishError(status, `{"status":${status},"message":"x"}`)).toEqual({});
  });

  it.each(['', '<html>502</html>', 'null'])('returns nothing for %j at 500', (text) => {
    expect(classifyFishError(500, text)).toEqual({});
  });
});
