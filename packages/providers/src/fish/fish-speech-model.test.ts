// Fish Audio's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildFishSpeechRequest } from './fish-speech-model.js';

const voice = '802e3bc2b27e49c2995d23ef70e6ac89';
const credentials = { apiKey: 'fish_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({ modelId: 's2.1-pro', voice, text: 'Hello', format: 'pcm', providerOptions: {}, ...overrides });
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildFishSpeechRequest', () => {
  it('asks /v1/tts for pcm at 24 kHz with Bearer auth and the model header', () => {
    const request = buildFishSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/tts');
    expect(request.headers).toEqual({ authorization: 'Bearer fish_test', model: 's2.1-pro', 'content-type': 'application/json' });
    expect(bodyOf(request)).toEqual({ text: 'Hello', reference_id: voice, format: 'pcm', sample_rate: 24000 });
    expect(request.output).toBeUndefined();
  });

  it('serves mp3 from the same 24 kHz pcm, declared for the router to encode', () => {
    const request = buildFishSpeechRequest(input({ format: 'mp3' }), credentials);
    expect(bodyOf(request)).toMatchObject({ format: 'pcm', sample_rate: 24000 });
    expect(request.output).toEqual({ framing: { kind: 'raw' }, container: 'raw', encoding: 's16le', sampleRate: 24000, channels: 1 });
  });

  it('clamps speed into prosody.speed, adds volume, passes options and warns about instructions', () => {
    const request = buildFishSpeechRequest(input({ speed: 3, instructions: 'Loud.', providerOptions: { volume: 3, latency: 'balanced', temperature: 0.5 } }), credentials);
    expect(bodyOf(request)).toMatchObject({ prosody: { speed: 2, volume: 3 }, latency: 'balanced', temperature: 0.5 });
    expect(request.warnings).toEqual(['speed clamped to 2: fish accepts 0.5 to 2', 'instructions ignored: not supported by fish']);
  });

  it('refuses voices that are not Fish voice model ids, and unknown options', () => {
    for (const bad of ['alloy', '../x', voice.toUpperCase(), `${voice}0`]) {
      expect(() => buildFishSpeechRequest(input({ voice: bad }), credentials)).toThrow(InvalidSpeechRequestError);
    }
    expect(() => buildFishSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildFishSpeechRequest(input({ providerOptions: { chunk_length: 50 } }), credentials)).toThrow(/"chunk_length"/);
  });
});
