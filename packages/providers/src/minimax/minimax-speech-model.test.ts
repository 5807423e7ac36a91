// MiniMax's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildMiniMaxSpeechRequest } from './minimax-speech-model.js';

const credentials = { apiKey: 'mm_test_key', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'speech-2.8-turbo',
  voice: 'English_expressive_narrator',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, any>;

describe('buildMiniMaxSpeechRequest', () => {
  it('maps mp3 to a streaming /v1/t2a_v2 request with Bearer auth, SSE hex output and JSON-as-error', () => {
    const request = buildMiniMaxSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/t2a_v2');
    expect(request.headers).toEqual({ authorization: 'Bearer mm_test_key', 'content-type': 'application/json', accept: 'text/event-stream' });
    expect(bodyOf(request)).toEqual({
      model: 'speech-2.8-turbo',
      text: 'Hello',
      stream: true,
      stream_options: { exclude_aggregated_audio: true },
      voice_setting: { voice_id: 'English_expressive_narrator' },
      audio_setting: { sample_rate: 24000, bitrate: 128000, format: 'mp3', channel: 1 },
      output_format: 'hex',
    });
    expect(request.output).toEqual({ framing: { kind: 'sse', audioField: 'data.audio', encoding: 'hex', errorField: 'base_resp.status_code' }, container: 'mp3' });
    expect(request.successJsonIsError).toBe(true);
    expect(request.warnings).toEqual([]);
  });

  it('maps pcm to 24 kHz mono pcm decoded from the same framing', () => {
    const request = buildMiniMaxSpeechRequest(input({ format: 'pcm' }), credentials);
    expect(bodyOf(request).audio_setting).toEqual({ sample_rate: 24000, format: 'pcm', channel: 1 });
    expect(request.output).toMatchObject({ container: 'raw', encoding: 's16le', sampleRate: 24000, channels: 1 });
  });

  it('maps speed (clamped to 0.5..2), warns about instructions, passes provider_options', () => {
    const request = buildMiniMaxSpeechRequest(
      input({ speed: 3, instructions: 'cheerful', providerOptions: { emotion: 'happy', vol: 2, pitch: -3, language_boost: 'English' } }),
      credentials,
    );
    expect(bodyOf(request).voice_setting).toEqual({ voice_id: 'English_expressive_narrator', speed: 2, emotion: 'happy', vol: 2, pitch: -3 });
    expect(bodyOf(request).language_boost).toBe('English');
    expect(request.warnings).toEqual(['speed clamped to 2: minimax accepts 0.5 to 2', 'instructions ignored: not supported by minimax (provider_options.emotion sets an emotion)']);
  });

  it('keeps any voice inside the JSON body and refuses bad provider_options', () => {
    expect(bodyOf(buildMiniMaxSpeechRequest(input({ voice: '../x?y' }), credentials)).voice_setting.voice_id).toBe('../x?y');
    expect(() => buildMiniMaxSpeechRequest(input({ providerOptions: { emotion: 'bored' } }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildMiniMaxSpeechRequest(input({ providerOptions: { vol: 0 } }), credentials)).toThrow(InvalidSpeechRequestError);
  });
});
