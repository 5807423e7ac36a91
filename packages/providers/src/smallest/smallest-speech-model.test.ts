// Smallest.ai's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildSmallestSpeechRequest } from './smallest-speech-model.js';

const credentials = { apiKey: 'sm_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({ modelId: 'lightning_v3.1', voice: 'magnus', text: 'Hello', format: 'mp3', providerOptions: {}, ...overrides });
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildSmallestSpeechRequest', () => {
  it('asks /waves/v1/tts for 24 kHz mp3 with Bearer auth and the SDK Accept header', () => {
    const request = buildSmallestSpeechRequest(input(), credentials);
    expect(request.path).toBe('/waves/v1/tts');
    expect(request.headers).toEqual({ authorization: 'Bearer sm_test', 'content-type': 'application/json', accept: 'audio/wav' });
    expect(bodyOf(request)).toEqual({ text: 'Hello', voice_id: 'magnus', model: 'lightning_v3.1', sample_rate: 24000, output_format: 'mp3' });
    expect(request.output).toBeUndefined();
  });

  it('asks for pcm at 24 kHz (already the router pcm)', () => {
    const request = buildSmallestSpeechRequest(input({ format: 'pcm', modelId: 'lightning_v3.1_pro', voice: 'meher' }), credentials);
    expect(bodyOf(request)).toMatchObject({ model: 'lightning_v3.1_pro', voice_id: 'meher', output_format: 'pcm', sample_rate: 24000 });
  });

  it('clamps speed into 0.5..2, passes the languages, warns about instructions', () => {
    const request = buildSmallestSpeechRequest(input({ speed: 3, instructions: 'Loudly.', providerOptions: { language: 'auto', number_pronunciation_language: 'hi' } }), credentials);
    expect(bodyOf(request)).toMatchObject({ speed: 2, language: 'auto', number_pronunciation_language: 'hi' });
    expect(request.warnings).toEqual(['speed clamped to 2: smallest accepts 0.5 to 2', 'instructions ignored: not supported by smallest']);
  });

  it('refuses voice ids that cannot be Smallest voices, unknown options and bad values', () => {
    expect(() => buildSmallestSpeechRequest(input({ voice: '../x' }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildSmallestSpeechRequest(input({ providerOptions: { language: 'english' } }), credentials)).toThrow(/"language"/);
    expect(() => buildSmallestSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
  });
});
