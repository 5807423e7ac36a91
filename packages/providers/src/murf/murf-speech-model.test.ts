// Murf's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildMurfSpeechRequest } from './murf-speech-model.js';

const credentials = { apiKey: 'murf_test_key', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'FALCON',
  voice: 'en-US-natalie',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildMurfSpeechRequest', () => {
  it('maps mp3 to /v1/speech/stream with the api-key header, MP3 at 24 kHz mono', () => {
    const request = buildMurfSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/speech/stream');
    expect(request.headers).toEqual({ 'api-key': 'murf_test_key', 'content-type': 'application/json', accept: 'application/octet-stream' });
    expect(bodyOf(request)).toEqual({ text: 'Hello', voiceId: 'en-US-natalie', model: 'FALCON', format: 'MP3', sampleRate: 24000, channelType: 'MONO' });
    expect(request.output).toBeUndefined();
    expect(request.warnings).toEqual([]);
  });

  it('maps pcm to PCM at 24 kHz mono (already the router format: no conversion)', () => {
    const request = buildMurfSpeechRequest(input({ format: 'pcm', modelId: 'GEN2' }), credentials);
    expect(bodyOf(request)).toMatchObject({ format: 'PCM', sampleRate: 24000, channelType: 'MONO', model: 'GEN2' });
    expect(request.output).toBeUndefined();
  });

  it('maps speed to rate in percent, clamped to -50..50 with a warning', () => {
    expect(bodyOf(buildMurfSpeechRequest(input({ speed: 1.25 }), credentials)).rate).toBe(25);
    expect(bodyOf(buildMurfSpeechRequest(input({ speed: 0.8 }), credentials)).rate).toBe(-20);
    const fast = buildMurfSpeechRequest(input({ speed: 3 }), credentials);
    expect(bodyOf(fast).rate).toBe(50);
    expect(fast.warnings).toEqual(['speed clamped to 1.5: murf accepts 0.5 to 1.5']);
    expect(bodyOf(buildMurfSpeechRequest(input({ speed: 0.25 }), credentials)).rate).toBe(-50);
  });

  it('warns that instructions are ignored', () => {
    const request = buildMurfSpeechRequest(input({ instructions: 'cheerful' }), credentials);
    expect(bodyOf(request).style).toBeUndefined();
    expect(request.warnings[0]).toMatch(/^instructions ignored: not supported by murf/);
  });

  it('passes provider_options under Murf names; variation only on GEN2', () => {
    const options = { locale: 'es-ES', style: 'Promo', pitch: -10, variation: 3 };
    expect(bodyOf(buildMurfSpeechRequest(input({ modelId: 'GEN2', providerOptions: options }), credentials))).toMatchObject(options);
    const falcon = buildMurfSpeechRequest(input({ providerOptions: options }), credentials);
    expect(bodyOf(falcon).variation).toBeUndefined();
    expect(falcon.warnings).toEqual(['variation ignored: murf offers it on GEN2 only']);
  });

  it('refuses bad provider_options and voices that are not Murf ids', () => {
    expect(() => buildMurfSpeechRequest(input({ providerOptions: { pitch: 70 } }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildMurfSpeechRequest(input({ providerOptions: { speed: 1 } }), credentials)).toThrow(InvalidSpeechRequestError);
    for (const voice of ['../x', 'a b', 'a?x=1', '']) {
      expect(() => buildMurfSpeechRequest(input({ voice }), credentials)).toThrow(InvalidSpeechRequestError);
    }
    expect(bodyOf(buildMurfSpeechRequest(input({ voice: 'natalie' }), credentials)).voiceId).toBe('natalie');
  });
});
