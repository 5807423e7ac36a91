// ElevenLabs error answers (object, validation array, string) to the router's categories and fields.

import { describe, expect, it } from 'vitest';
import { classifyElevenLabsError } from './elevenlabs-error.js';

const detail = (value: unknown) => JSON.stringify({ detail: value });

describe('classifyElevenLabsError', () => {
  it.each([
    [404, 'voice_not_found', 'voice'],
    [400, 'voice_not_found', 'voice'],
    [400, 'max_character_limit_exceeded', 'input'],
    [400, 'model_not_found', 'model'],
  ])('pins a %i %s on %s', (status, slug, field) => {
    expect(classifyElevenLabsError(status, detail({ status: slug, message: 'never read' }))).toEqual({ category: 'invalid_request', field });
  });

  it('reads the newer detail.code shape too', () => {
    expect(classifyElevenLabsError(404, detail({ type: 'not_found', code: 'voice_not_found', message: 'x', request_id: 'r' }))).toEqual({
      category: 'invalid_request',
      field: 'voice',
    });
  });

  it.each([
    [['body', 'text'], 'input'],
    [['body', 'model_id'], 'model'],
    [['body', 'voice_settings', 'speed'], 'speed'],
    [['body', 'voice_settings', 'stability'], 'provider_options.stability'],
    [['body', 'voice_settings', 'mystery'], 'provider_options'],
    [['body', 'seed'], 'provider_options.seed'],
    [['query', 'output_format'], 'response_format'],
    [['query', 'optimize_streaming_latency'], 'provider_options.optimize_streaming_latency'],
    [['path', 'voice_id'], 'voice'],
  ])('maps a validation error at %j to %s', (loc, field) => {
    expect(classifyElevenLabsError(422, detail([{ type: 'value_error', loc, msg: 'never read' }]))).toEqual({ category: 'invalid_request', field });
  });

  it('names no field for validation errors at unknown locations', () => {
    expect(classifyElevenLabsError(422, detail([{ loc: ['body', 'secret_upstream_field'] }]))).toEqual({ category: 'invalid_request' });
  });

  it('tells quota exhaustion (a 401) from a bad key', () => {
    expect(classifyElevenLabsError(401, detail({ status: 'quota_exceeded', message: 'You have 0 credits left' }))).toEqual({ category: 'upstream_quota_exceeded' });
    expect(classifyElevenLabsError(401, detail({ status: 'invalid_api_key', message: 'x' }))).toEqual({});
  });

  it('leaves 429s, 5xx and routing 404s to the status category', () => {
    expect(classifyElevenLabsError(429, detail({ status: 'too_many_concurrent_requests', message: 'x' }))).toEqual({});
    expect(classifyElevenLabsError(503, detail({ status: 'system_busy', message: 'x' }))).toEqual({});
    expect(classifyElevenLabsError(404, detail('Not Found'))).toEqual({});
  });

  it.each(['gateway timeout', '', '{}', 'null'])('returns nothing for %j', (body) => {
    expect(classifyElevenLabsError(500, body)).toEqual({});
  });
});
