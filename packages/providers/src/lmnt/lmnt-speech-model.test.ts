// LMNT's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildLmntSpeechRequest } from './lmnt-speech-model.js';

const credentials = { apiKey: 'ak_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'blizzard',
  voice: 'leah',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildLmntSpeechRequest', () => {
  it('maps mp3 to /v1/ai/speech/bytes with X-API-Key and the SDK version header', () => {
    const request = buildLmntSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/ai/speech/bytes');
    expect(request.headers).toEqual({
      'x-api-key': 'ak_test',
      'lmnt-version': '1.1',
      accept: 'application/octet-stream',
      'content-type': 'application/json',
    });
    expect(bodyOf(request)).toEqual({ text: 'Hello', voice: 'leah', model: 'blizzard', format: 'mp3', sample_rate: 24000 });
    expect(request.output).toBeUndefined();
    expect(request.warnings).toEqual([]);
  });

  it('maps pcm to pcm_s16le at 24 kHz (already the router format: no conversion)', () => {
    const request = buildLmntSpeechRequest(input({ format: 'pcm' }), credentials);
    expect(bodyOf(request)).toMatchObject({ format: 'pcm_s16le', sample_rate: 24000 });
    expect(request.output).toBeUndefined();
  });

  it('keeps any voice string inside the JSON body', () => {
    const request = buildLmntSpeechRequest(input({ voice: '../../v1/ai/voice/list?x=1' }), credentials);
    expect(request.path).toBe('/v1/ai/speech/bytes');
    expect(bodyOf(request).voice).toBe('../../v1/ai/voice/list?x=1');
  });

  it('passes language, temperature and top_p through', () => {
    const request = buildLmntSpeechRequest(input({ providerOptions: { language: 'fr', temperature: 0.3, top_p: 0.9 } }), credentials);
    expect(bodyOf(request)).toMatchObject({ language: 'fr', temperature: 0.3, top_p: 0.9 });
  });

  it('warns that speed and instructions are not supported', () => {
    const request = buildLmntSpeechRequest(input({ speed: 1.5, instructions: 'Whisper.' }), credentials);
    expect(request.warnings).toEqual(['speed ignored: not supported by lmnt', 'instructions ignored: not supported by lmnt']);
    expect(bodyOf(request)).not.toHaveProperty('speed');
  });

  it('refuses unknown options and bad values, naming the key', () => {
    expect(() => buildLmntSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildLmntSpeechRequest(input({ providerOptions: { top_p: 2 } }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildLmntSpeechRequest(input({ providerOptions: { language: 'xx' } }), credentials)).toThrow(/"language"/);
  });
});
