// Path-segment encoding, known-model limits and speed clamping.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import { openAIDescriptor } from '../openai/openai-catalog.js';
import type { SpeechInput } from '../types.js';
import { checkKnownModel, clampSpeed, encodePathSegment } from './speech-checks.js';

describe('encodePathSegment', () => {
  it('encodes every character that could change the path, query or fragment', () => {
    expect(encodePathSegment('a/b?c=d#e f%')).toBe('a%2Fb%3Fc%3Dd%23e%20f%25');
  });

  it.each(['', '.', '..', '\uDC00'])('refuses %j', (value) => {
    expect(() => encodePathSegment(value)).toThrow(InvalidSpeechRequestError);
  });

  it('allows dots inside a longer segment', () => {
    expect(encodePathSegment('...')).toBe('...');
    expect(encodePathSegment('v.1')).toBe('v.1');
  });
});

describe('checkKnownModel', () => {
  const input = (overrides: Partial<SpeechInput>): SpeechInput => ({
    modelId: 'tts-1',
    voice: 'alloy',
    text: 'x',
    format: 'mp3',
    providerOptions: {},
    ...overrides,
  });

  it('refuses input beyond the model limit in code points', () => {
    expect(() => checkKnownModel(openAIDescriptor, input({ text: 'x'.repeat(4097) }))).toThrow(InvalidSpeechRequestError);
    expect(() => checkKnownModel(openAIDescriptor, input({ text: '🎉'.repeat(4096) }))).not.toThrow();
  });

  it('lets unknown models through to upstream', () => {
    expect(() => checkKnownModel(openAIDescriptor, input({ modelId: 'tts-2', text: 'x'.repeat(9000) }))).not.toThrow();
  });
});

describe('small helpers', () => {
  it('clamps speed with a warning only when needed', () => {
    expect(clampSpeed('p', 1, 0.5, 2)).toEqual({ speed: 1 });
    expect(clampSpeed('p', 0.1, 0.5, 2)).toEqual({ speed: 0.5, warning: 'speed clamped to 0.5: p accepts 0.5 to 2' });
  });
});
