// The pure mapping to POST /cognitiveservices/v1: headers, output formats, speed, options and warnings.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { buildAzureSpeechRequest } from './azure-speech-model.js';
import { elementsNamed, parseXml } from './azure-ssml-reader.js';

const credentials = { apiKey: 'azure-key', settings: { region: 'eastus' } };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'neural', voice: 'en-GB-SoniaNeural', text: 'Hello', format: 'mp3', providerOptions: {}, ...overrides,
});

describe('buildAzureSpeechRequest', () => {
  it('posts SSML with the key, the content type, the mp3 format and a user agent', () => {
    const request = buildAzureSpeechRequest(input(), credentials);
    expect(request).toMatchObject({ method: 'POST', path: '/cognitiveservices/v1', warnings: [] });
    expect(request.headers).toEqual({
      'ocp-apim-subscription-key': 'azure-key',
      'content-type': 'application/ssml+xml',
      'x-microsoft-outputformat': 'audio-24khz-96kbitrate-mono-mp3',
      'user-agent': 'voice-router',
    });
    const root = parseXml(request.body);
    expect(root.attributes['xml:lang']).toBe('en-GB');
    expect(elementsNamed(root, 'voice')[0]!.attributes.name).toBe('en-GB-SoniaNeural');
    expect(request.output).toBeUndefined();
  });

  it('asks for raw 24 kHz 16-bit mono pcm', () => {
    expect(buildAzureSpeechRequest(input({ format: 'pcm' }), credentials).headers['x-microsoft-outputformat']).toBe('raw-24khz-16bit-mono-pcm');
  });

  it('takes another mp3 format and a language from provider_options', () => {
    const request = buildAzureSpeechRequest(input({ providerOptions: { mp3_format: 'audio-48khz-192kbitrate-mono-mp3', language: 'fr-FR' } }), credentials);
    expect(request.headers['x-microsoft-outputformat']).toBe('audio-48khz-192kbitrate-mono-mp3');
    expect(parseXml(request.body).attributes['xml:lang']).toBe('fr-FR');
  });

  it('warns that mp3_format does not apply to pcm', () => {
    const request = buildAzureSpeechRequest(input({ format: 'pcm', providerOptions: { mp3_format: 'audio-16khz-32kbitrate-mono-mp3' } }), credentials);
    expect(request.warnings).toEqual(['provider option "mp3_format" ignored: pcm is always raw-24khz-16bit-mono-pcm']);
  });

  it.each([{ mp3_format: 'riff-24khz-16bit-mono-pcm' }, { language: 'en US' }, { style: 'cheerful' }])('refuses provider_options %j', (options) => {
    expect(() => buildAzureSpeechRequest(input({ providerOptions: options }), credentials)).toThrow(InvalidSpeechRequestError);
  });

  it('maps speed to <prosody rate>, clamped to 0.5..2 with a warning', () => {
    const rateOf = (speed: number) => elementsNamed(parseXml(buildAzureSpeechRequest(input({ speed }), credentials).body), 'prosody')[0]?.attributes.rate;
    expect(rateOf(1.25)).toBe('+25%');
    expect(rateOf(0.8)).toBe('-20%');
    expect(rateOf(1)).toBeUndefined();
    const fast = buildAzureSpeechRequest(input({ speed: 4 }), credentials);
    expect(elementsNamed(parseXml(fast.body), 'prosody')[0]!.attributes.rate).toBe('+100%');
    expect(fast.warnings).toEqual(['speed clamped to 2: azure accepts 0.5 to 2']);
  });

  it('drops instructions with a warning', () => {
    expect(buildAzureSpeechRequest(input({ instructions: 'whisper' }), credentials).warnings).toEqual(['instructions ignored: not supported by azure']);
  });

  it('refuses a voice name that is not an Azure voice name', () => {
    expect(() => buildAzureSpeechRequest(input({ voice: '"><x/>' }), credentials)).toThrow(InvalidSpeechRequestError);
  });
});
