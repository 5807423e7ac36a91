// Hume's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildHumeSpeechRequest } from './hume-speech-model.js';

const credentials = { apiKey: 'hume_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'octave-2',
  voice: 'Ava Song',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;
const pcm48k = { framing: { kind: 'raw' }, container: 'raw', encoding: 's16le', sampleRate: 48000, channels: 1 };

describe('buildHumeSpeechRequest', () => {
  it('asks /v0/tts/stream/file for 48 kHz pcm for both formats and declares it for conversion', () => {
    for (const format of ['mp3', 'pcm'] as const) {
      const request = buildHumeSpeechRequest(input({ format }), credentials);
      expect(request.path).toBe('/v0/tts/stream/file');
      expect(request.headers).toEqual({ 'x-hume-api-key': 'hume_test', 'content-type': 'application/json' });
      expect(bodyOf(request)).toEqual({
        utterances: [{ text: 'Hello', voice: { name: 'Ava Song', provider: 'HUME_AI' } }],
        format: { type: 'pcm' },
        version: '2',
      });
      expect(request.output).toEqual(pcm48k);
    }
  });

  it('sends UUID voices as ids and honours voice_provider', () => {
    const id = '5bb7de05-c8fe-426a-8fcc-ba4fc4ce9f9c';
    const request = buildHumeSpeechRequest(input({ voice: id, providerOptions: { voice_provider: 'CUSTOM_VOICE' } }), credentials);
    expect((bodyOf(request).utterances as unknown[])[0]).toMatchObject({ voice: { id, provider: 'CUSTOM_VOICE' } });
  });

  it('maps instructions to the description and clamps speed into 0.5..2', () => {
    const request = buildHumeSpeechRequest(input({ instructions: 'Whisper, conspiratorially.', speed: 3 }), credentials);
    expect((bodyOf(request).utterances as unknown[])[0]).toMatchObject({ description: 'Whisper, conspiratorially.', speed: 2 });
    expect(request.warnings).toEqual(['speed clamped to 2: hume accepts 0.5 to 2']);
  });

  it('maps octave-1 to version 1 and passes trailing_silence and instant_mode', () => {
    const body = bodyOf(buildHumeSpeechRequest(input({ modelId: 'octave-1', providerOptions: { trailing_silence: 1, instant_mode: false } }), credentials));
    expect(body).toMatchObject({ version: '1', instant_mode: false, utterances: [{ trailing_silence: 1 }] });
  });

  it('refuses unknown models, unknown options and bad values', () => {
    expect(() => buildHumeSpeechRequest(input({ modelId: 'octave-9' }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildHumeSpeechRequest(input({ modelId: 'constructor' }), credentials)).toThrow(InvalidSpeechRequestError);
    expect(() => buildHumeSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildHumeSpeechRequest(input({ providerOptions: { voice_provider: 'OTHER' } }), credentials)).toThrow(/"voice_provider"/);
  });
});
