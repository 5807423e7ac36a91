// Deepgram's pure request mapping, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildDeepgramSpeechRequest, deepgramUpstreamModel } from './deepgram-speech-model.js';

const credentials = { apiKey: 'dg_test', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'aura-2',
  voice: 'thalia-en',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const queryOf = (request: { path: string }) => Object.fromEntries(new URL(request.path, 'http://x').searchParams);

describe('buildDeepgramSpeechRequest', () => {
  it('maps mp3 to /v1/speak with the composed model, explicit encoding and bit rate, and Token auth', () => {
    const request = buildDeepgramSpeechRequest(input(), credentials);
    expect(request.path).toBe('/v1/speak?model=aura-2-thalia-en&encoding=mp3&bit_rate=48000');
    expect(request.headers).toEqual({ authorization: 'Token dg_test', 'content-type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual({ text: 'Hello' });
    expect(request.output).toBeUndefined();
    expect(request.warnings).toEqual([]);
  });

  it('maps pcm to linear16 at 24 kHz without a container (already the router format)', () => {
    const request = buildDeepgramSpeechRequest(input({ format: 'pcm', modelId: 'aura', voice: 'asteria-en' }), credentials);
    expect(queryOf(request)).toEqual({ model: 'aura-asteria-en', encoding: 'linear16', sample_rate: '24000', container: 'none' });
    expect(request.output).toBeUndefined();
  });

  it('accepts the full upstream name as the voice and refuses anything that is not name-language', () => {
    expect(deepgramUpstreamModel('aura-2', 'aura-2-zeus-en')).toBe('aura-2-zeus-en');
    expect(deepgramUpstreamModel('aura-2', 'agustina-es')).toBe('aura-2-agustina-es');
    for (const voice of ['a&encoding=wav', '../x', 'Thalia-en', 'thalia', 'thalia-en?x=1', '']) {
      expect(() => buildDeepgramSpeechRequest(input({ voice }), credentials)).toThrow(InvalidSpeechRequestError);
    }
  });

  it('clamps speed for aura-2 and drops it with a warning for aura', () => {
    const fast = buildDeepgramSpeechRequest(input({ speed: 2 }), credentials);
    expect(queryOf(fast).speed).toBe('1.5');
    expect(fast.warnings).toEqual(['speed clamped to 1.5: deepgram accepts 0.7 to 1.5']);
    expect(queryOf(buildDeepgramSpeechRequest(input({ speed: 0.9 }), credentials)).speed).toBe('0.9');
    const aura1 = buildDeepgramSpeechRequest(input({ modelId: 'aura', voice: 'luna-en', speed: 1.2 }), credentials);
    expect(queryOf(aura1)).not.toHaveProperty('speed');
    expect(aura1.warnings).toEqual(['speed ignored: not supported by deepgram aura (use aura-2)']);
  });

  it('warns that instructions are not supported', () => {
    expect(buildDeepgramSpeechRequest(input({ instructions: 'Whisper.' }), credentials).warnings).toEqual([
      'instructions ignored: not supported by deepgram',
    ]);
  });

  it('passes provider_options into the query and refuses unknown keys and bad values, naming the key', () => {
    const request = buildDeepgramSpeechRequest(input({ providerOptions: { mp3_bit_rate: 32000, tag: 'a&b', mip_opt_out: true } }), credentials);
    expect(queryOf(request)).toMatchObject({ bit_rate: '32000', tag: 'a&b', mip_opt_out: 'true' });
    expect(() => buildDeepgramSpeechRequest(input({ providerOptions: { colour: 'blue' } }), credentials)).toThrow(/"colour"/);
    expect(() => buildDeepgramSpeechRequest(input({ providerOptions: { mp3_bit_rate: 64000 } }), credentials)).toThrow(/"mp3_bit_rate"/);
  });
});
