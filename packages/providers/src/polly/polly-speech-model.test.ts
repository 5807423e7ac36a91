// Polly's pure request mapping and its signer, without a network.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import type { SpeechInput } from '../types.js';
import { signPollyRequest } from './polly-signing.js';
import { buildPollySpeechRequest } from './polly-speech-model.js';

const credentials = { apiKey: 'AKIDEXAMPLE', settings: {} };
const input = (overrides: Partial<SpeechInput> = {}): SpeechInput => ({
  modelId: 'neural',
  voice: 'Joanna',
  text: 'Hello',
  format: 'mp3',
  providerOptions: {},
  ...overrides,
});
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as Record<string, unknown>;

describe('buildPollySpeechRequest', () => {
  it('maps mp3 to SynthesizeSpeech at 24 kHz with the engine as the model', () => {
    const request = buildPollySpeechRequest(input(), credentials);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/speech', headers: { 'content-type': 'application/json' }, warnings: [] });
    expect(bodyOf(request)).toEqual({ Engine: 'neural', OutputFormat: 'mp3', SampleRate: '24000', Text: 'Hello', TextType: 'text', VoiceId: 'Joanna' });
    expect(request.output).toBeUndefined();
  });

  it('asks for 16 kHz pcm (Polly has no 24 kHz pcm) and describes it for resampling', () => {
    const request = buildPollySpeechRequest(input({ format: 'pcm', modelId: 'standard' }), credentials);
    expect(bodyOf(request)).toMatchObject({ Engine: 'standard', OutputFormat: 'pcm', SampleRate: '16000' });
    expect(request.output).toEqual({ framing: { kind: 'raw' }, container: 'raw', encoding: 's16le', sampleRate: 16000, channels: 1 });
  });

  it('refuses voices that are not Polly voice ids before sending', () => {
    for (const voice of ['joanna', '../x', 'Jo anna', 'Léa', '', 'A']) {
      expect(() => buildPollySpeechRequest(input({ voice }), credentials)).toThrow(InvalidSpeechRequestError);
    }
  });

  it('maps provider_options and warns for speed and instructions', () => {
    const request = buildPollySpeechRequest(
      input({ speed: 1.2, instructions: 'Calm.', providerOptions: { language_code: 'en-IN', lexicon_names: ['names'] } }),
      credentials,
    );
    expect(bodyOf(request)).toMatchObject({ LanguageCode: 'en-IN', LexiconNames: ['names'] });
    expect(request.warnings).toEqual(['speed ignored: not supported by polly', 'instructions ignored: not supported by polly']);
    expect(() => buildPollySpeechRequest(input({ providerOptions: { language_code: 'english' } }), credentials)).toThrow(/"language_code"/);
    expect(() => buildPollySpeechRequest(input({ providerOptions: { SampleRate: '8000' } }), credentials)).toThrow(/"SampleRate"/);
  });
});

describe('signPollyRequest', () => {
  const request = { method: 'POST' as const, url: new URL('https://polly.eu-west-1.amazonaws.com/v1/speech'), headers: { 'content-type': 'application/json' }, body: '{}' };
  const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', region: 'eu-west-1' };
  const date = new Date('2026-11-23T10:00:00Z');

  it('signs with the region and service scope, leaves host to the client, and never sends the secret', async () => {
    const headers = await signPollyRequest(request, keys, date);
    expect(headers['x-amz-date']).toBe('20261123T100000Z');
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261123\/eu-west-1\/polly\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    expect(headers).not.toHaveProperty('host');
    expect(JSON.stringify(headers)).not.toContain('secret');
    expect(headers['content-type']).toBe('application/json');
  });

  it('is deterministic for a date, changes with the body and carries a session token', async () => {
    const first = await signPollyRequest(request, keys, date);
    expect((await signPollyRequest(request, keys, date)).authorization).toBe(first.authorization);
    expect((await signPollyRequest({ ...request, body: '{"a":1}' }, keys, date)).authorization).not.toBe(first.authorization);
    const withToken = await signPollyRequest(request, { ...keys, sessionToken: 'token-1' }, date);
    expect(withToken['x-amz-security-token']).toBe('token-1');
  });
});
