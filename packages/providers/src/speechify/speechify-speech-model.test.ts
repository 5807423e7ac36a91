// Speechify's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import type { SpeechInput } from '../types.js';
import { buildSpeechifySpeechRequest } from './speechify-speech-model.js';

const credentials = { apiKey: 'sk_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'simba-english',
  voice: 'george',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildSpeechifySpeechRequest', () => {
  it('asks /v1/audio/stream for 24 kHz mp3 with Bearer auth and Accept audio/mpeg', () => {
    const request = buildSpeechifySpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/audio/stream');
    expect(request.headers).toEqual({ authorization: 'Bearer sk_test', accept: 'audio/mpeg', 'content-type': 'application/json' });
    expect(bodyOf(request)).toEqual({ input: 'Hello', voice_id: 'george', model: 'simba-english', output_format: 'mp3_24000_128' });
    expect(request.output).toBeUndefined();
    expect(request.warnings).toEqual([]);
  });

  it('asks for pcm_24000 with Accept audio/pcm (already the router pcm)', () => {
    const request = buildSpeechifySpeechRequest(input({ format: 'pcm', modelId: 'simba-3.0' }), credentials);
    expect(request.headers.accept).toBe('audio/pcm');
    expect(bodyOf(request)).toMatchObject({ model: 'simba-3.0', output_format: 'pcm_24000' });
    expect(request.output).toBeUndefined();
  });

  it('passes language and the normalisation options', () => {
    const body = bodyOf(
      buildSpeechifySpeechRequest(input({ providerOptions: { language: 'es-MX', loudness_normalization: true, text_normalization: false } }), credentials),
    );
    expect(body).toMatchObject({ language: 'es-MX', options: { loudness_normalization: true, text_normalization: false } });
  });

  it('warns that speed and instructions are dropped', () => {
    const request = buildSpeechifySpeechRequest(input({ speed: 1.5, instructions: 'Cheerfully.' }), credentials);
    expect(request.warnings).toEqual(['speed ignored: not supported by speechify', 'instructions ignored: not supported by speechify']);
    expect(bodyOf(request)).not.toHaveProperty('speed');
  });

  it('refuses unknown options and bad values naming the key', () => {
    expect(() => buildSpeechifySpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildSpeechifySpeechRequest(input({ providerOptions: { language: 'not a locale' } }), credentials)).toThrow(/"language"/);
    expect(() => buildSpeechifySpeechRequest(input({ providerOptions: { text_normalization: 'yes' } }), credentials)).toThrow(/"text_normalization"/);
  });
});
