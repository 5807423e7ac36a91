// ElevenLabs' pure request mapping, including path-injection voices.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildElevenLabsSpeechRequest } from './elevenlabs-speech-model.js';

const credentials = { apiKey: 'xi-test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'eleven_flash_v2_5',
  voice: '21m00Tcm4TlvDq8ikWAM',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildElevenLabsSpeechRequest', () => {
  it('maps to the streaming endpoint with output_format in the query and xi-api-key', () => {
    const request = buildElevenLabsSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=mp3_44100_128');
    expect(request.headers).toEqual({ 'xi-api-key': 'xi-test', 'content-type': 'application/json' });
    expect(bodyOf(request)).toEqual({ text: 'Hello', model_id: 'eleven_flash_v2_5' });
    expect(request.warnings).toEqual([]);
  });

  it('asks for pcm_24000 for pcm', () => {
    expect(buildElevenLabsSpeechRequest(input({ format: 'pcm' }), credentials).path).toMatch(/\?output_format=pcm_24000$/);
  });

  it.each([
    ['../admin', '..%2Fadmin'],
    ['%2F', '%252F'],
    ['a?x=1', 'a%3Fx%3D1'],
    ['a#b', 'a%23b'],
    ['with space', 'with%20space'],
    ['ünï/cödé', '%C3%BCn%C3%AF%2Fc%C3%B6d%C3%A9'],
    ['a/../../v2/voices', 'a%2F..%2F..%2Fv2%2Fvoices'],
  ])('keeps voice %j inside one path segment', (voice, encoded) => {
    const { path } = buildElevenLabsSpeechRequest(input({ voice }), credentials);
    expect(path).toBe(`/v1/text-to-speech/${encoded}/stream?output_format=mp3_44100_128`);
    expect(decodeURIComponent(path.split('/')[3]!)).toBe(voice);
  });

  it.each(['.', '..', '', '\uD800'])('refuses voice %j that cannot be a safe segment', (voice) => {
    expect(() => buildElevenLabsSpeechRequest(input({ voice }), credentials)).toThrow(InvalidSpeechRequestError);
  });

  it('clamps speed into 0.7..1.2 and warns', () => {
    const fast = buildElevenLabsSpeechRequest(input({ speed: 2 }), credentials);
    expect(bodyOf(fast).voice_settings).toEqual({ speed: 1.2 });
    expect(fast.warnings).toEqual(['speed clamped to 1.2: elevenlabs accepts 0.7 to 1.2']);
    const slow = buildElevenLabsSpeechRequest(input({ speed: 0.25 }), credentials);
    expect(bodyOf(slow).voice_settings).toEqual({ speed: 0.7 });
    const fine = buildElevenLabsSpeechRequest(input({ speed: 1.1 }), credentials);
    expect(fine.warnings).toEqual([]);
  });

  it('maps known provider options into voice_settings, body and query', () => {
    const request = buildElevenLabsSpeechRequest(
      input({
        speed: 1,
        providerOptions: {
          stability: 0.4,
          similarity_boost: 0.8,
          style: 0.1,
          use_speaker_boost: false,
          seed: 42,
          language_code: 'de',
          apply_text_normalization: 'off',
          previous_request_ids: ['a', 'b'],
          enable_logging: false,
          optimize_streaming_latency: 2,
          output_format: 'mp3_22050_32',
          next_text: null,
        },
      }),
      credentials,
    );
    expect(bodyOf(request)).toEqual({
      text: 'Hello',
      model_id: 'eleven_flash_v2_5',
      voice_settings: { stability: 0.4, similarity_boost: 0.8, style: 0.1, use_speaker_boost: false, speed: 1 },
      seed: 42,
      language_code: 'de',
      apply_text_normalization: 'off',
      previous_request_ids: ['a', 'b'],
    });
    expect(request.path).toBe(
      '/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=mp3_22050_32&enable_logging=false&optimize_streaming_latency=2',
    );
    expect(request.warnings).toEqual([]);
  });

  it('refuses an unknown provider option naming it', () => {
    expect(() => buildElevenLabsSpeechRequest(input({ providerOptions: { mystery: 1 } }), credentials)).toThrow('provider option "mystery" is not accepted by elevenlabs');
  });

  it('asks for pcm_24000 whatever output_format says, with a warning', () => {
    const request = buildElevenLabsSpeechRequest(input({ format: 'pcm', providerOptions: { output_format: 'mp3_44100_192' } }), credentials);
    expect(request.path).toBe('/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=pcm_24000');
    expect(request.warnings).toEqual(['provider option "output_format" ignored: pcm is always pcm_24000']);
  });

  it.each([
    { stability: 'high' },
    { stability: 2 },
    { seed: 1.5 },
    { use_speaker_boost: 'yes' },
    { apply_text_normalization: 'maybe' },
    { previous_request_ids: ['a', 'b', 'c', 'd'] },
    { output_format: 'pcm_44100' },
    { output_format: 'mp3_44100_999' },
  ])('rejects provider options of the wrong type or range: %j', (providerOptions) => {
    expect(() => buildElevenLabsSpeechRequest(input({ providerOptions }), credentials)).toThrow(InvalidSpeechRequestError);
  });

  it('warns that instructions are unsupported', () => {
    const request = buildElevenLabsSpeechRequest(input({ instructions: 'Sad.' }), credentials);
    expect(request.warnings).toEqual(['instructions ignored: not supported by elevenlabs']);
    expect(bodyOf(request)).not.toHaveProperty('instructions');
  });

  it('drops language_code for eleven_multilingual_v2', () => {
    const request = buildElevenLabsSpeechRequest(
      input({ modelId: 'eleven_multilingual_v2', providerOptions: { language_code: 'fr' } }),
      credentials,
    );
    expect(bodyOf(request)).not.toHaveProperty('language_code');
    expect(request.warnings).toHaveLength(1);
  });
});
