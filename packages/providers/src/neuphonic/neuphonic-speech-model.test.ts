// Neuphonic's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildNeuphonicSpeechRequest } from './neuphonic-speech-model.js';

const credentials = { apiKey: 'np_test', settings: {} };
const voice = 'eeb488b8-d532-4235-aa57-f070cfc44750';
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({ modelId: 'default', voice, text: 'Hello', format: 'mp3', providerOptions: {}, ...overrides });
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildNeuphonicSpeechRequest', () => {
  it('asks /sse/speak/en for 24 kHz pcm_linear for both formats and declares the SSE framing', () => {
    for (const format of ['mp3', 'pcm'] as const) {
      const request = buildNeuphonicSpeechRequest(input({ format }), credentials);
      expect(request.path).toBe('/sse/speak/en');
      expect(request.headers).toEqual({ 'x-api-key': 'np_test', 'content-type': 'application/json', accept: 'text/event-stream' });
      expect(bodyOf(request)).toEqual({ text: 'Hello', lang_code: 'en', voice_id: voice, sampling_rate: 24000, encoding: 'pcm_linear' });
      expect(request.output).toEqual({
        framing: { kind: 'sse', audioField: 'data.audio', encoding: 'base64', errorField: 'errors' },
        container: 'raw',
        encoding: 's16le',
        sampleRate: 24000,
        channels: 1,
      });
    }
  });

  it('puts lang_code in the path and the body, passes temperature, clamps speed into 0.7..2', () => {
    const request = buildNeuphonicSpeechRequest(input({ speed: 0.5, providerOptions: { lang_code: 'es', temperature: 0.5 } }), credentials);
    expect(request.path).toBe('/sse/speak/es');
    expect(bodyOf(request)).toMatchObject({ lang_code: 'es', temperature: 0.5, speed: 0.7 });
    expect(request.warnings).toEqual(['speed clamped to 0.7: neuphonic accepts 0.7 to 2']);
  });

  it('warns that instructions are dropped', () => {
    expect(buildNeuphonicSpeechRequest(input({ instructions: 'Calmly.' }), credentials).warnings).toEqual(['instructions ignored: not supported by neuphonic']);
  });

  it('refuses other models, non-UUID voices and bad options before sending', () => {
    expect(() => buildNeuphonicSpeechRequest(input({ modelId: 'neu_hq' }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildNeuphonicSpeechRequest(input({ voice: '../voices' }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildNeuphonicSpeechRequest(input({ providerOptions: { lang_code: '../x' } }), credentials)).toThrow(/"lang_code"/);
    expect(() => buildNeuphonicSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
  });
});
