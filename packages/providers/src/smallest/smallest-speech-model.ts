// Pure mapping from the router's SpeechInput to Smallest.ai's POST /waves/v1/tts request.

import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { clampSpeed } from '../shared/speech-checks.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { SmallestTtsRequestBody } from './smallest-api-types.js';

const PROVIDER = 'smallest';
export const SMALLEST_SPEED_RANGE = [0.5, 2] as const;
export const SMALLEST_SAMPLE_RATE = 24_000;
const LANGUAGE = /^([a-z]{2}|auto)$/;
/** Smallest voice ids are slugs (`magnus`, cloned `voice_…`). */
const VOICE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const smallestProviderOptions = z.strictObject({
  language: z.string().regex(LANGUAGE).optional().describe('ISO 639-1 code of the text, or auto (Pro default: en + hi)'),
  number_pronunciation_language: z.string().regex(LANGUAGE).optional().describe('Language numbers, currency and dates are read in'),
});

export type SmallestProviderOptions = z.infer<typeof smallestProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): SmallestProviderOptions {
  return readProviderOptions('smallest', options ?? {}, smallestProviderOptions).values as SmallestProviderOptions;
}

export function buildSmallestSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  // An unknown voice is a plain 400 upstream; ids that cannot be Smallest voices are refused here with the field.
  if (!VOICE_ID.test(input.voice)) throw new InvalidSpeechRequestError('voice must be a Smallest.ai voice id (letters, digits, _ and -)');
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const body: SmallestTtsRequestBody = {
    text: input.text,
    voice_id: input.voice,
    model: input.modelId,
    sample_rate: SMALLEST_SAMPLE_RATE,
    output_format: input.format === 'mp3' ? 'mp3' : 'pcm',
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...SMALLEST_SPEED_RANGE);
    body.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (options.language !== undefined) body.language = options.language;
  if (options.number_pronunciation_language !== undefined) body.number_pronunciation_language = options.number_pronunciation_language;
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by smallest');
  return {
    method: 'POST',
    path: '/waves/v1/tts',
    // The SDK always sends Accept: audio/wav (the docs warn that omitting it can yield an empty body); the
    // body's output_format picks the format.
    headers: { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json', accept: 'audio/wav' },
    body: JSON.stringify(body),
    warnings,
  };
}
