// The local provider's pure request mapping.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildLocalSynthesisRequest } from './local-speech-model.js';

const voices = new Set(['en-us', 'de']);
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'espeak-ng',
  voice: 'en-us',
  text: 'Hello',
  format: 'pcm',
  providerOptions: {},
  ...overrides,
});

describe('buildLocalSynthesisRequest', () => {
  it('passes text, voice, format and speed through', () => {
    expect(buildLocalSynthesisRequest(input({ speed: 1.5 }), voices)).toEqual({
      request: { text: 'Hello', voice: 'en-us', format: 'pcm', speed: 1.5 },
      warnings: [],
    });
  });

  it('refuses unknown voices and models as invalid requests', () => {
    expect(() => buildLocalSynthesisRequest(input({ voice: '../en-us' }), voices)).toThrow(InvalidSpeechRequestError);
    expect(() => buildLocalSynthesisRequest(input({ modelId: 'tts-1' }), voices)).toThrow(InvalidSpeechRequestError);
  });

  it('warns about instructions and provider options', () => {
    const { warnings } = buildLocalSynthesisRequest(input({ instructions: 'Sing.', providerOptions: { pitch: 3 } }), voices);
    expect(warnings).toEqual(['provider option "pitch" ignored: not supported by local', 'instructions ignored: not supported by local']);
  });
});
