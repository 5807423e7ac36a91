// Rime's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildRimeSpeechRequest } from './rime-speech-model.js';

const credentials = { apiKey: 'rime_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'arcana',
  voice: 'luna',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildRimeSpeechRequest', () => {
  it('asks /v1/rime-tts for mp3 through Accept, with Bearer auth and 24 kHz', () => {
    const request = buildRimeSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/rime-tts');
    expect(request.headers).toEqual({ authorization: 'Bearer rime_test', accept: 'audio/mp3', 'content-type': 'application/json' });
    expect(bodyOf(request)).toEqual({ speaker: 'luna', text: 'Hello', modelId: 'arcana', samplingRate: 24000 });
    expect(request.output).toBeUndefined();
  });

  it('asks for headerless pcm at 24 kHz for pcm', () => {
    const request = buildRimeSpeechRequest(input({ format: 'pcm' }), credentials);
    expect(request.headers.accept).toBe('audio/pcm');
    expect(bodyOf(request).samplingRate).toBe(24000);
  });

  it('maps speed to speedAlpha (mistv2) or timeScaleFactor (mistv3), as 1/speed; warns on arcana', () => {
    expect(bodyOf(buildRimeSpeechRequest(input({ modelId: 'mistv2', voice: 'cove', speed: 2 }), credentials)).speedAlpha).toBe(0.5);
    expect(bodyOf(buildRimeSpeechRequest(input({ modelId: 'mistv3', voice: 'cove', speed: 0.8 }), credentials)).timeScaleFactor).toBe(1.25);
    const arcana = buildRimeSpeechRequest(input({ speed: 1.2, instructions: 'Smile.' }), credentials);
    expect(bodyOf(arcana)).not.toHaveProperty('speedAlpha');
    expect(arcana.warnings).toEqual(['speed ignored: not supported by rime model arcana', 'instructions ignored: not supported by rime']);
  });

  it('passes options through and refuses unknown ones', () => {
    expect(bodyOf(buildRimeSpeechRequest(input({ providerOptions: { lang: 'spa', temperature: 0.5 } }), credentials))).toMatchObject({ lang: 'spa', temperature: 0.5 });
    expect(() => buildRimeSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildRimeSpeechRequest(input({ providerOptions: { lang: 'English' } }), credentials)).toThrow(/"lang"/);
  });

  it.each(['../x', 'a/b', 'a?x=1', 'with space', '', 'x'.repeat(65)])('refuses %j as a speaker before sending', (voice) => {
    expect(() => buildRimeSpeechRequest(input({ voice }), credentials)).toThrow(InvalidSpeechRequestError);
  });
});
