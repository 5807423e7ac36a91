// Resemble's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import type { SpeechInput } from '../types.js';
import { buildResembleSpeechRequest } from './resemble-speech-model.js';

const credentials = { apiKey: 'rs_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'chatterbox-turbo',
  voice: '55592656',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildResembleSpeechRequest', () => {
  it('asks /stream for 44.1 kHz PCM_16 WAV for both formats and declares the WAV for conversion', () => {
    for (const format of ['mp3', 'pcm'] as const) {
      const request = buildResembleSpeechRequest(input({ format }), credentials);
      expect(request.path).toBe('/stream');
      expect(request.headers).toEqual({ authorization: 'Bearer rs_test', 'content-type': 'application/json' });
      expect(bodyOf(request)).toEqual({ voice_uuid: '55592656', data: 'Hello', precision: 'PCM_16', sample_rate: 44100, model: 'chatterbox-turbo' });
      expect(request.output).toEqual({ framing: { kind: 'raw' }, container: 'wav' });
    }
  });

  it('files the clip under project_uuid when given', () => {
    expect(bodyOf(buildResembleSpeechRequest(input({ providerOptions: { project_uuid: 'a1b2c3d4' } }), credentials))).toMatchObject({ project_uuid: 'a1b2c3d4' });
  });

  it('warns that speed and instructions are dropped', () => {
    const request = buildResembleSpeechRequest(input({ speed: 0.8, instructions: 'Softly.' }), credentials);
    expect(request.warnings).toEqual(['speed ignored: not supported by resemble', 'instructions ignored: not supported by resemble']);
  });

  it('refuses unknown options and bad values naming the key', () => {
    expect(() => buildResembleSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildResembleSpeechRequest(input({ providerOptions: { project_uuid: '../x' } }), credentials)).toThrow(/"project_uuid"/);
  });
});
