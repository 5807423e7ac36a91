// Cartesia's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildCartesiaSpeechRequest } from './cartesia-speech-model.js';

const credentials = { apiKey: 'sk_car_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'sonic-3',
  voice: '694f9389-aac1-45b6-b726-9d9369183238',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildCartesiaSpeechRequest', () => {
  it('maps mp3 to /tts/bytes with Bearer auth and the pinned version', () => {
    const request = buildCartesiaSpeechRequest(input(), credentials);
    expect(request.path).toBe('/tts/bytes');
    expect(request.headers).toEqual({
      authorization: 'Bearer sk_car_test',
      'cartesia-version': '2026-08-14',
      'content-type': 'application/json',
    });
    expect(bodyOf(request)).toEqual({
      model_id: 'sonic-3',
      transcript: 'Hello',
      voice: { id: '694f9389-aac1-45b6-b726-9d9369183238' },
      output_format: { container: 'mp3', sample_rate: 44100, bit_rate: 128000 },
    });
  });

  it('lets provider_options pick the mp3 sample rate and bit rate, and ignores them for pcm with a warning', () => {
    const mp3 = buildCartesiaSpeechRequest(input({ providerOptions: { mp3_sample_rate: 24000, mp3_bit_rate: 64000 } }), credentials);
    expect(bodyOf(mp3).output_format).toEqual({ container: 'mp3', sample_rate: 24000, bit_rate: 64000 });
    const pcm = buildCartesiaSpeechRequest(input({ format: 'pcm', providerOptions: { mp3_bit_rate: 64000 } }), credentials);
    expect(bodyOf(pcm).output_format).toEqual({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 });
    expect(pcm.warnings).toEqual(['provider options "mp3_sample_rate" and "mp3_bit_rate" ignored: pcm is always pcm_s16le at 24 kHz']);
    expect(() => buildCartesiaSpeechRequest(input({ providerOptions: { mp3_bit_rate: 100000 } }), credentials)).toThrow(InvalidSpeechRequestError);
  });

  it('maps pcm to raw pcm_s16le at 24 kHz', () => {
    expect(bodyOf(buildCartesiaSpeechRequest(input({ format: 'pcm' }), credentials)).output_format).toEqual({
      container: 'raw',
      encoding: 'pcm_s16le',
      sample_rate: 24000,
    });
  });

  it('keeps any voice string inside the JSON body, never the path', () => {
    const request = buildCartesiaSpeechRequest(input({ voice: '../../voices?x=1#y' }), credentials);
    expect(request.path).toBe('/tts/bytes');
    expect(bodyOf(request).voice).toEqual({ id: '../../voices?x=1#y' });
  });

  it('clamps speed into 0.6..1.5 in generation_config and warns', () => {
    const request = buildCartesiaSpeechRequest(input({ speed: 4 }), credentials);
    expect(bodyOf(request).generation_config).toEqual({ speed: 1.5 });
    expect(request.warnings).toEqual(['speed clamped to 1.5: cartesia accepts 0.6 to 1.5']);
  });

  it('maps language, volume and emotion; refuses unknown options naming the key', () => {
    const request = buildCartesiaSpeechRequest(
      input({ speed: 1.2, providerOptions: { language: 'fr', volume: 1.5, emotion: 'excited' } }),
      credentials,
    );
    expect(bodyOf(request)).toMatchObject({ language: 'fr', generation_config: { speed: 1.2, volume: 1.5, emotion: 'excited' } });
    expect(request.warnings).toEqual([]);
    expect(() => buildCartesiaSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow('provider option "colour" is not accepted by cartesia');
  });

  it('refuses language together with locale, and wrong types', () => {
    expect(() => buildCartesiaSpeechRequest(input({ providerOptions: { language: 'en', locale: 'en-GB' } }), credentials)).toThrow(
      InvalidSpeechRequestError,
    );
    expect(() => buildCartesiaSpeechRequest(input({ providerOptions: { volume: 'loud' } }), credentials)).toThrow(
      InvalidSpeechRequestError,
    );
  });

  it('does not send generation_config to sonic-2 snapshots', () => {
    const request = buildCartesiaSpeechRequest(input({ modelId: 'sonic-2-2025-06-11', speed: 1.2 }), credentials);
    expect(bodyOf(request)).not.toHaveProperty('generation_config');
    expect(request.warnings).toHaveLength(1);
  });

  it('warns that sonic-3.5 may ignore speed, and that instructions are unsupported', () => {
    const request = buildCartesiaSpeechRequest(input({ modelId: 'sonic-3.5', speed: 1.1, instructions: 'Calm.' }), credentials);
    expect(request.warnings).toEqual([
      'speed and volume may be ignored: cartesia has temporarily disabled them on sonic-3.5',
      'instructions ignored: not supported by cartesia',
    ]);
  });
});
