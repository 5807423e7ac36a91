// OpenAI's pure request mapping and the shared OpenAI-compatible base.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildOpenAICompatibleSpeechRequest, buildOpenAISpeechRequest, openAISpeechSettings } from './openai-speech-model.js';

const credentials = { apiKey: 'sk-test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'gpt-4o-mini-tts',
  voice: 'alloy',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildOpenAISpeechRequest', () => {
  it('maps the input to the documented body, path and headers', () => {
    const request = buildOpenAISpeechRequest(input({ speed: 1.25, instructions: 'Cheerful.' }), credentials);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/audio/speech');
    expect(request.headers).toEqual({ authorization: 'Bearer sk-test', 'content-type': 'application/json', accept: 'application/octet-stream' });
    expect(bodyOf(request)).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello',
      voice: 'alloy',
      response_format: 'mp3',
      speed: 1.25,
      instructions: 'Cheerful.',
    });
    expect(request.warnings).toEqual([]);
  });

  it('sends response_format pcm', () => {
    expect(bodyOf(buildOpenAISpeechRequest(input({ format: 'pcm' }), credentials)).response_format).toBe('pcm');
  });

  it.each(['tts-1', 'tts-1-hd', 'tts-1-hd-1106'])('drops instructions for %s with a warning', (modelId) => {
    const request = buildOpenAISpeechRequest(input({ modelId, instructions: 'Whisper.' }), credentials);
    expect(bodyOf(request)).not.toHaveProperty('instructions');
    expect(request.warnings).toEqual([`instructions ignored: not supported by openai model ${modelId}`]);
  });

  it('omits speed when not given', () => {
    expect(bodyOf(buildOpenAISpeechRequest(input(), credentials))).not.toHaveProperty('speed');
  });

  it('sends voice_ ids as custom voice objects', () => {
    expect(bodyOf(buildOpenAISpeechRequest(input({ voice: 'voice_abc123' }), credentials)).voice).toEqual({ id: 'voice_abc123' });
  });

  it('refuses provider options (OpenAI takes none), naming the key', () => {
    expect(() => buildOpenAISpeechRequest(input({ providerOptions: { stream_format: 'sse' } }), credentials)).toThrow(
      'provider option "stream_format" is not accepted: openai takes no provider options',
    );
  });

  it('refuses more than 4096 code points, counting emoji once', () => {
    expect(() => buildOpenAISpeechRequest(input({ text: 'a'.repeat(4097) }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildOpenAISpeechRequest(input({ text: '😀'.repeat(4096) }), credentials)).not.toThrow();
  });
});

describe('buildOpenAICompatibleSpeechRequest (the shared base)', () => {
  const compatible = {
    ...openAISpeechSettings,
    provider: 'example',
    path: '/tts/speech',
    speedRange: [0.5, 2] as const,
    supportsInstructions: () => false,
    providerOptions: z.object({ sample_rate: z.int().min(8000).max(48000).optional() }),
  };

  it('applies the provider settings: path, speed range, extra options, instructions', () => {
    const request = buildOpenAICompatibleSpeechRequest(
      input({ speed: 3, instructions: 'x', providerOptions: { sample_rate: 24000 } }),
      credentials,
      compatible,
    );
    expect(request.path).toBe('/tts/speech');
    expect(bodyOf(request)).toMatchObject({ speed: 2, sample_rate: 24000 });
    expect(request.warnings).toEqual([
      'speed clamped to 2: example accepts 0.5 to 2',
      'instructions ignored: not supported by example model gpt-4o-mini-tts',
    ]);
  });

  it('never lets a provider option replace a mapped field', () => {
    const overlapping = { ...compatible, providerOptions: z.object({ voice: z.string().optional(), sample_rate: z.int().optional() }) };
    const request = buildOpenAICompatibleSpeechRequest(
      input({ voice: 'alloy', providerOptions: { voice: 'other', sample_rate: 16000 } }), credentials, overlapping,
    );
    expect(bodyOf(request)).toMatchObject({ voice: 'alloy', sample_rate: 16000 });
  });

  it('rejects provider options of the wrong type', () => {
    expect(() =>
      buildOpenAICompatibleSpeechRequest(input({ providerOptions: { sample_rate: 'fast' } }), credentials, compatible),
    ).toThrow(InvalidSpeechRequestError);
  });
});
