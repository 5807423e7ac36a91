// Inworld's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildInworldSpeechRequest } from './inworld-speech-model.js';

const credentials = { apiKey: 'aW53b3JsZDprZXk=', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'inworld-tts-1.5-mini',
  voice: 'Ashley',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildInworldSpeechRequest', () => {
  it('maps mp3 to the streaming endpoint with Basic auth (key as given), MP3 24 kHz, NDJSON base64 output', () => {
    const request = buildInworldSpeechRequest(input(), credentials);
    expect(request.path).toBe('/tts/v1/voice:stream');
    expect(request.headers).toEqual({ authorization: 'Basic aW53b3JsZDprZXk=', 'content-type': 'application/json' });
    expect(bodyOf(request)).toEqual({
      text: 'Hello',
      voiceId: 'Ashley',
      modelId: 'inworld-tts-1.5-mini',
      audioConfig: { audioEncoding: 'MP3', sampleRateHertz: 24000, bitRate: 128000 },
    });
    expect(request.output).toEqual({ framing: { kind: 'ndjson', audioField: 'result.audioContent', encoding: 'base64', errorField: 'error' }, container: 'mp3' });
    expect(request.warnings).toEqual([]);
  });

  it('maps pcm to headerless PCM at 24 kHz, decoded from the same framing', () => {
    const request = buildInworldSpeechRequest(input({ format: 'pcm' }), credentials);
    expect(bodyOf(request).audioConfig).toEqual({ audioEncoding: 'PCM', sampleRateHertz: 24000 });
    expect(request.output).toMatchObject({ container: 'raw', encoding: 's16le', sampleRate: 24000, channels: 1, framing: { kind: 'ndjson' } });
  });

  it('maps speed to speakingRate, clamped to 0.5..1.5 with a warning; warns about instructions', () => {
    expect((bodyOf(buildInworldSpeechRequest(input({ speed: 1.2 }), credentials)).audioConfig as Record<string, unknown>).speakingRate).toBe(1.2);
    const slow = buildInworldSpeechRequest(input({ speed: 0.25, instructions: 'whisper' }), credentials);
    expect((bodyOf(slow).audioConfig as Record<string, unknown>).speakingRate).toBe(0.5);
    expect(slow.warnings).toEqual(['speed clamped to 0.5: inworld accepts 0.5 to 1.5', 'instructions ignored: not supported by inworld']);
  });

  it('sends temperature except on inworld-tts-2, and delivery_mode on inworld-tts-2 only', () => {
    const options = { temperature: 0.7, delivery_mode: 'CREATIVE', apply_text_normalization: 'OFF' };
    const mini = buildInworldSpeechRequest(input({ providerOptions: options }), credentials);
    expect(bodyOf(mini)).toMatchObject({ temperature: 0.7, applyTextNormalization: 'OFF' });
    expect(bodyOf(mini).deliveryMode).toBeUndefined();
    expect(mini.warnings).toEqual(['delivery_mode ignored: inworld offers it on inworld-tts-2 only']);
    const two = buildInworldSpeechRequest(input({ modelId: 'inworld-tts-2', providerOptions: options }), credentials);
    expect(bodyOf(two)).toMatchObject({ deliveryMode: 'CREATIVE' });
    expect(bodyOf(two).temperature).toBeUndefined();
    expect(two.warnings).toEqual(['temperature ignored: inworld-tts-2 uses delivery_mode instead']);
  });

  it('keeps any voice inside the JSON body and refuses bad provider_options', () => {
    expect(bodyOf(buildInworldSpeechRequest(input({ voice: '../x?y=1' }), credentials)).voiceId).toBe('../x?y=1');
    expect(() => buildInworldSpeechRequest(input({ providerOptions: { temperature: 3 } }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildInworldSpeechRequest(input({ providerOptions: { delivery_mode: 'WILD' } }), credentials)).toThrow(InvalidSpeechRequestError);
  });
});
