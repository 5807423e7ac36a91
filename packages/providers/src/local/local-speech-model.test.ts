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

  it('warns about instructions and refuses provider options (local takes none)', () => {
    const { warnings } = buildLocalSynthesisRequest(input({ instructions: 'Sing.' }), voices);
    expect(warnings).toEqual(['instructions ignored: not supported by local']);
    expect(() => buildLocalSynthesisRequest(input({ providerOptions: { pitch: 3 } }), voices)).toThrow(
      'provider option "pitch" is not accepted: local takes no provider options',
    );
  });
});
