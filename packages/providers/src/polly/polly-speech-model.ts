// Pure mapping from the router's SpeechInput to Polly's SynthesizeSpeech (POST /v1/speech). Signing happens
// per attempt in the adapter (polly-signing.ts), once the target URL is known.

import type { OutputDescription } from '@voice-router/audio';
import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { PollyEngine, PollySynthesizeSpeechBody } from './polly-api-types.js';

/** Polly's pcm is 8 or 16 kHz only: the router asks for 16 kHz and resamples to 24 kHz. */
export const POLLY_PCM_SAMPLE_RATE = 16_000;
export const POLLY_MP3_SAMPLE_RATE = 24_000;

export const POLLY_PCM_OUTPUT: OutputDescription = {
  framing: { kind: 'raw' },
  container: 'raw',
  encoding: 's16le',
  sampleRate: POLLY_PCM_SAMPLE_RATE,
  channels: 1,
};

/** provider_options Polly accepts, as the service names them (lower camel in JSON is not used: keys are snake_case). */
export const pollyProviderOptions = z.strictObject({
  language_code: z
    .string()
    .regex(/^[a-z]{2,3}-[A-Z]{2}$/, 'a language code such as en-IN')
    .optional()
    .describe('LanguageCode, for bilingual voices (e.g. Aditi speaking en-IN or hi-IN)'),
  lexicon_names: z
    .array(z.string().regex(/^[0-9A-Za-z]{1,20}$/))
    .max(5)
    .optional()
    .describe('LexiconNames: up to 5 pronunciation lexicons stored in the region'),
});

/** Polly voice ids are capitalised ASCII names (Joanna, Matthew, Lea...). */
const VOICE_ID_PATTERN = /^[A-Z][A-Za-z]{1,39}$/;

export type PollyProviderOptions = z.infer<typeof pollyProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): PollyProviderOptions {
  return readProviderOptions('polly', options ?? {}, pollyProviderOptions).values as PollyProviderOptions;
}

export function buildPollySpeechRequest(input: SpeechInput, _credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  if (!VOICE_ID_PATTERN.test(input.voice)) {
    throw new InvalidSpeechRequestError(`voice ${quoteName(input.voice)} is not a Polly voice id (e.g. Joanna)`);
  }
  const warnings: string[] = [];
  const body: PollySynthesizeSpeechBody = {
    Engine: input.modelId as PollyEngine,
    OutputFormat: input.format === 'mp3' ? 'mp3' : 'pcm',
    SampleRate: String(input.format === 'mp3' ? POLLY_MP3_SAMPLE_RATE : POLLY_PCM_SAMPLE_RATE),
    Text: input.text,
    TextType: 'text',
    VoiceId: input.voice,
  };
  if (options.language_code !== undefined) body.LanguageCode = options.language_code;
  if (options.lexicon_names !== undefined) body.LexiconNames = options.lexicon_names;
  if (input.speed !== undefined) warnings.push('speed ignored: not supported by polly');
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by polly');
  return {
    method: 'POST',
    path: '/v1/speech',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    output: input.format === 'pcm' ? POLLY_PCM_OUTPUT : undefined,
  };
}
