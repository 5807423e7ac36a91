// The pure mapping to POST /v1/text:synthesize: body, auth header, output description, options and warnings.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildGoogleSpeechRequest, languageOfVoice } from './google-speech-model.js';
import { familyModelOf } from './google-catalog.js';

const keyCredentials = { apiKey: 'google-key', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'neural2', voice: 'en-GB-Neural2-B', text: 'Hello', format: 'mp3', providerOptions: {}, ...overrides,
});
const bodyOf = (overrides: Partial<SpeechInput> = {}) => JSON.parse(buildGoogleSpeechRequest(input(overrides), keyCredentials).body) as Record<string, Record<string, unknown>>;

describe('buildGoogleSpeechRequest', () => {
  it('posts text, voice and MP3 at 24 kHz with the API key header, and decodes the JSON answer', () => {
    const request = buildGoogleSpeechRequest(input(), keyCredentials);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/text:synthesize', warnings: [] });
    expect(request.headers).toEqual({ 'x-goog-api-key': 'google-key', 'content-type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual({
      input: { text: 'Hello' },
      voice: { languageCode: 'en-GB', name: 'en-GB-Neural2-B' },
      audioConfig: { audioEncoding: 'MP3', sampleRateHertz: 24000 },
    });
    expect(request.output).toEqual({ framing: { kind: 'json', audioField: 'audioContent' }, container: 'mp3' });
  });

  it('asks pcm as LINEAR16 at 24 kHz and strips its WAV header', () => {
    const request = buildGoogleSpeechRequest(input({ format: 'pcm' }), keyCredentials);
    expect((JSON.parse(request.body) as { audioConfig: unknown }).audioConfig).toEqual({ audioEncoding: 'LINEAR16', sampleRateHertz: 24000 });
    expect(request.output).toEqual({ framing: { kind: 'json', audioField: 'audioContent' }, container: 'wav' });
  });

  it('sends a service account token as a Bearer header instead of the key', () => {
    const request = buildGoogleSpeechRequest(input(), { apiKey: 'ya29.token', settings: { bearer: true } });
    expect(request.headers).toEqual({ authorization: 'Bearer ya29.token', 'content-type': 'application/json' });
  });

  it('maps speed to speakingRate, clamped to 0.25..4 with a warning', () => {
    expect(bodyOf({ speed: 1.5 }).audioConfig!.speakingRate).toBe(1.5);
    const request = buildGoogleSpeechRequest(input({ speed: 0.1 }), keyCredentials);
    expect((JSON.parse(request.body) as { audioConfig: { speakingRate: number } }).audioConfig.speakingRate).toBe(0.25);
    expect(request.warnings).toEqual(['speed clamped to 0.25: google accepts 0.25 to 4']);
  });

  it('takes language_code, pitch and volume_gain_db from provider_options', () => {
    const body = bodyOf({ voice: 'en-US-Neural2-F', providerOptions: { language_code: 'en-US', pitch: -3.5, volume_gain_db: 6 } });
    expect(body.voice).toEqual({ languageCode: 'en-US', name: 'en-US-Neural2-F' });
    expect(body.audioConfig).toMatchObject({ pitch: -3.5, volumeGainDb: 6 });
  });

  it.each([{ pitch: 21 }, { volume_gain_db: -97 }, { language_code: 'en_US!' }, { speaking_rate: 2 }])('refuses provider_options %j', (options) => {
    expect(() => buildGoogleSpeechRequest(input({ providerOptions: options }), keyCredentials)).toThrow(InvalidSpeechRequestError);
  });

  it('drops instructions with a warning', () => {
    expect(buildGoogleSpeechRequest(input({ instructions: 'calm' }), keyCredentials).warnings).toEqual(['instructions ignored: not supported by google']);
  });

  it('refuses a voice of another family than the model, so the price matches the voice', () => {
    expect(() => buildGoogleSpeechRequest(input({ modelId: 'standard', voice: 'en-US-Studio-O' }), keyCredentials)).toThrow(/studio voice: use model google\/studio/);
    expect(bodyOf({ modelId: 'studio', voice: 'en-US-Studio-O' }).voice).toEqual({ languageCode: 'en-US', name: 'en-US-Studio-O' });
  });

  it('sends voices of families it does not know at the chosen model', () => {
    expect(bodyOf({ modelId: 'standard', voice: 'en-US-Polyglot-1' }).voice).toEqual({ languageCode: 'en-US', name: 'en-US-Polyglot-1' });
  });

  it.each(['a/b', 'with space', '../x', 'a?x=1', 'ünïcødé-声音', '', '.'])('refuses the voice name %j locally', (voice) => {
    expect(() => buildGoogleSpeechRequest(input({ voice }), keyCredentials)).toThrow(InvalidSpeechRequestError);
  });

  it('needs a language when the voice name carries none', () => {
    expect(() => buildGoogleSpeechRequest(input({ voice: 'custom' }), keyCredentials)).toThrow(/language_code/);
    expect(bodyOf({ voice: 'custom', providerOptions: { language_code: 'en-US' } }).voice).toEqual({ languageCode: 'en-US', name: 'custom' });
  });
});

describe('voice names', () => {
  it.each([
    ['en-US-Chirp3-HD-Charon', 'en-US', 'chirp3-hd'],
    ['cmn-CN-Wavenet-A', 'cmn-CN', 'wavenet'],
    ['en-US-Chirp-HD-F', 'en-US', 'chirp-hd'],
    ['es-419-Neural2-A', 'es-419', 'neural2'],
    ['en-US-Polyglot-1', 'en-US', undefined],
  ])('%s is %s, family %s', (voice, language, family) => {
    expect(languageOfVoice(voice)).toBe(language);
    expect(familyModelOf(voice)).toBe(family);
  });
});
