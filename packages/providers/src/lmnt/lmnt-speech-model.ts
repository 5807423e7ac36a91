// Pure mapping from the router's SpeechInput to LMNT's POST /v1/ai/speech/bytes request.

import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import { LMNT_API_VERSION, type LmntSpeechRequestBody } from './lmnt-api-types.js';

const LANGUAGES = [
  'auto', 'ar', 'as', 'bn', 'cs', 'da', 'de', 'en', 'es', 'fi', 'fr', 'hi', 'id', 'it', 'ja', 'ko', 'ml', 'mr', 'nl',
  'pl', 'pt', 'ru', 'sk', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'vi', 'zh',
] as const;

/** provider_options LMNT accepts, as the SDK names them. */
export const lmntProviderOptions = z.strictObject({
  language: z.enum(LANGUAGES).optional().describe('ISO 639-1 language code, or auto (the default) to detect it'),
  temperature: z.number().min(0).max(2).optional().describe('Expressiveness: lower is more neutral, higher more varied'),
  top_p: z.number().min(0).max(1).optional().describe('Stability: lower is more consistent, higher more flexible'),
});

export type LmntProviderOptions = z.infer<typeof lmntProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): LmntProviderOptions {
  return readProviderOptions('lmnt', options ?? {}, lmntProviderOptions).values as LmntProviderOptions;
}

export function buildLmntSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const body: LmntSpeechRequestBody = {
    text: input.text,
    voice: input.voice,
    model: input.modelId,
    // mp3 is LMNT's 96 kbps stream; pcm_s16le at 24 kHz is exactly the router's pcm.
    format: input.format === 'mp3' ? 'mp3' : 'pcm_s16le',
    sample_rate: 24_000,
    ...options,
  };
  if (input.speed !== undefined) warnings.push('speed ignored: not supported by lmnt');
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by lmnt');
  return {
    method: 'POST',
    path: '/v1/ai/speech/bytes',
    headers: {
      'x-api-key': credentials.apiKey,
      'lmnt-version': LMNT_API_VERSION,
      accept: 'application/octet-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    warnings,
  };
}
