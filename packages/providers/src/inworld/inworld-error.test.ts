// Inworld error answers to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyInworldError } from './inworld-error.js';

const body = (code: unknown) => JSON.stringify({ code, message: 'never read', details: [] });

describe('classifyInworldError', () => {
  it('pins NOT_FOUND on the voice and calls INVALID_ARGUMENT a client refusal', () => {
    expect(classifyInworldError(404, body(5))).toEqual({ category: 'invalid_request', field: 'voice' });
    expect(classifyInworldError(400, body(3))).toEqual({ category: 'invalid_request' });
    expect(classifyInworldError(400, body(9))).toEqual({ category: 'invalid_request' });
    expect(classifyInworldError(400, 'Bad Request')).toEqual({ category: 'invalid_request' });
    expect(classifyInworldError(404, JSON.stringify({ error: { code: 5, message: 'x' } }))).toEqual({ category: 'invalid_request', field: 'voice' });
  });

  it('leaves a 404 without NOT_FOUND (a wrong route or base URL) and other statuses to their category', () => {
    expect(classifyInworldError(404, 'Not Found')).toEqual({});
    expect(classifyInworldError(400, body(16))).toEqual({});
    for (const [status, code] of [[401, 16], [403, 7], [429, 8], [500, 13], [503, 14]] as const) {
      expect(classifyInworldError(status, body(code))).toEqual({});
    }
  });

  it.each(['', 'not json', '[]', '{"code":"5"}', '{"error":null}'])('never throws on %j', (text) => {
    expect(classifyInworldError(500, text)).toEqual({});
  });
});
