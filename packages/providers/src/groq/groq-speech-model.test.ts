// Groq's pure request mapping (OpenAI's dialect with Groq's path, limits and WAV answers), without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import { classifyOpenAIError } from '../openai/openai-error.js';
import type { SpeechInput } from '../types.js';
import { buildGroqSpeechRequest } from './groq-speech-model.js';

const credentials = { apiKey: 'gsk_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'canopylabs/orpheus-v1-english',
  voice: 'autumn',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildGroqSpeechRequest', () => {
  it('posts to /openai/v1/audio/speech with Bearer auth and asks for 24 kHz WAV for mp3, converted by the router', () => {
    const request = buildGroqSpeechRequest(input(), credentials);
    expect(request.path).toBe('/openai/v1/audio/speech');
    expect(request.headers.authorization).toBe('Bearer gsk_test');
    expect(bodyOf(request)).toEqual({
      model: 'canopylabs/orpheus-v1-english',
      input: 'Hello',
      voice: 'autumn',
      response_format: 'wav',
      sample_rate: 24000,
    });
    expect(request.output).toEqual({ framing: { kind: 'raw' }, container: 'wav' });
    expect(request.warnings).toEqual([]);
  });

  it('asks for the same WAV for pcm (the header is stripped while streaming)', () => {
    const request = buildGroqSpeechRequest(input({ format: 'pcm' }), credentials);
    expect(bodyOf(request)).toMatchObject({ response_format: 'wav', sample_rate: 24000 });
    expect(request.output).toEqual({ framing: { kind: 'raw' }, container: 'wav' });
  });

  it('maps speed within 0.5 to 5 and clamps beyond with a warning', () => {
    expect(bodyOf(buildGroqSpeechRequest(input({ speed: 1.5 }), credentials)).speed).toBe(1.5);
    const clamped = buildGroqSpeechRequest(input({ speed: 0.25 }), credentials);
    expect(bodyOf(clamped).speed).toBe(0.5);
    expect(clamped.warnings).toEqual(['speed clamped to 0.5: groq accepts 0.5 to 5']);
  });

  it('drops instructions with a warning', () => {
    const request = buildGroqSpeechRequest(input({ instructions: 'Cheerful.' }), credentials);
    expect(bodyOf(request).instructions).toBeUndefined();
    expect(request.warnings).toEqual(['instructions ignored: not supported by groq model canopylabs/orpheus-v1-english']);
  });

  it('refuses a voice that is not one of a known model\'s voices, and passes voices of models added since', () => {
    expect(() => buildGroqSpeechRequest(input({ voice: 'fahad' }), credentials)).toThrow(/voice "fahad" is not a voice of groq model canopylabs\/orpheus-v1-english/);
    expect(() => buildGroqSpeechRequest(input({ modelId: 'canopylabs/orpheus-arabic-saudi', voice: 'fahad' }), credentials)).not.toThrow();
    expect(bodyOf(buildGroqSpeechRequest(input({ modelId: 'canopylabs/orpheus-v2', voice: 'new-voice' }), credentials)).voice).toBe('new-voice');
  });

  it('refuses input over 200 characters before calling upstream', () => {
    expect(() => buildGroqSpeechRequest(input({ text: 'x'.repeat(201) }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildGroqSpeechRequest(input({ text: 'é'.repeat(200) }), credentials)).not.toThrow();
  });
});

describe('Groq error bodies through the OpenAI classifier', () => {
  it('names the model for model_not_found and no field for other 400s', () => {
    const notFound = JSON.stringify({ error: { message: 'The model `x` does not exist', type: 'invalid_request_error', code: 'model_not_found' } });
    expect(classifyOpenAIError(404, notFound)).toEqual({ category: 'invalid_request', field: 'model' });
    const badVoice = JSON.stringify({ error: { message: 'voice must be one of [...]', type: 'invalid_request_error' } });
    expect(classifyOpenAIError(400, badVoice)).toEqual({ category: 'invalid_request' });
    expect(classifyOpenAIError(404, JSON.stringify({ error: { message: 'Unknown request URL', type: 'invalid_request_error', code: 'unknown_url' } }))).toEqual({});
    expect(classifyOpenAIError(500, '<html>')).toEqual({});
  });
});
