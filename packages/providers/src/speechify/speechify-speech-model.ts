// Pure mapping from the router's SpeechInput to Speechify's POST /v1/audio/stream request (JSON body, the format
// pinned by both the Accept header and output_format).

import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { SpeechifyStreamAccept, SpeechifyStreamRequestBody } from './speechify-api-types.js';

/** mp3 at 24 kHz, 128 kbps; pcm s16le at 24 kHz. */
export const SPEECHIFY_OUTPUT_FORMATS = { mp3: 'mp3_24000_128', pcm: 'pcm_24000' } as const;
const ACCEPT: Record<'mp3' | 'pcm', SpeechifyStreamAccept> = { mp3: 'audio/mpeg', pcm: 'audio/pcm' };
/** BCP 47-like locale (en-US, es-MX, fr-FR). */
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const speechifyProviderOptions = z.strictObject({
  language: z.string().regex(LOCALE).max(35).optional().describe('Locale of the input such as en-US (Speechify detects it when absent)'),
  loudness_normalization: z.boolean().optional().describe('Normalise loudness to a standard level'),
  text_normalization: z.boolean().optional().describe('Expand numbers, dates and abbreviations before speaking'),
});

export type SpeechifyProviderOptions = z.infer<typeof speechifyProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): SpeechifyProviderOptions {
  return readProviderOptions('speechify', options ?? {}, speechifyProviderOptions).values as SpeechifyProviderOptions;
}

export function buildSpeechifySpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { language, loudness_normalization, text_normalization } = readOptions(input.providerOptions);
  const warnings: string[] = [];
  if (input.speed !== undefined) warnings.push('speed ignored: not supported by speechify');
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by speechify');
  const body: SpeechifyStreamRequestBody = { input: input.text, voice_id: input.voice, model: input.modelId };
  if (language !== undefined) body.language = language;
  const options: NonNullable<SpeechifyStreamRequestBody['options']> = {};
  if (loudness_normalization !== undefined) options.loudness_normalization = loudness_normalization;
  if (text_normalization !== undefined) options.text_normalization = text_normalization;
  if (Object.keys(options).length > 0) body.options = options;
  body.output_format = SPEECHIFY_OUTPUT_FORMATS[input.format];
  return {
    method: 'POST',
    path: '/v1/audio/stream',
    headers: { authorization: `Bearer ${credentials.apiKey}`, accept: ACCEPT[input.format], 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
  };
}
