// Pure mapping from the router's SpeechInput to Murf's POST /v1/speech/stream request.

import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { MurfStreamRequestBody } from './murf-api-types.js';

const PROVIDER = 'murf';
/** Murf's `rate` runs -50..50 (percent around normal pace): speed 0.5..1.5. */
export const MURF_SPEED_RANGE = [0.5, 1.5] as const;
export const MURF_SAMPLE_RATE = 24_000;
/** Murf voice ids (`en-US-natalie`) and actor names (`natalie`): letters, digits, `_` and `-`. */
const VOICE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const murfProviderOptions = z.strictObject({
  locale: z.string().min(2).max(20).optional().describe('Language the voice speaks, e.g. en-US or es-ES (a multi-locale voice speaks it natively)'),
  style: z.string().min(1).max(60).optional().describe('A style the voice offers (see supportedLocales.availableStyles), e.g. Conversational'),
  pitch: z.number().int().min(-50).max(50).optional().describe('Pitch, -50 to 50'),
  variation: z.number().int().min(0).max(5).optional().describe('GEN2 only: variation in pause, pitch and speed, 0 to 5'),
});

export type MurfProviderOptions = z.infer<typeof murfProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): MurfProviderOptions {
  return readProviderOptions(PROVIDER, options ?? {}, murfProviderOptions).values as MurfProviderOptions;
}

export function buildMurfSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  if (!VOICE_ID.test(input.voice)) throw new InvalidSpeechRequestError('voice must be a Murf voice id such as en-US-natalie (letters, digits, _ or -)');
  const warnings: string[] = [];
  const body: MurfStreamRequestBody = {
    text: input.text,
    voiceId: input.voice,
    model: input.modelId,
    // Both formats at 24 kHz mono: MP3 as Murf encodes it, PCM exactly the router's pcm.
    format: input.format === 'mp3' ? 'MP3' : 'PCM',
    sampleRate: MURF_SAMPLE_RATE,
    channelType: 'MONO',
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...MURF_SPEED_RANGE);
    body.rate = Math.round((clamped.speed - 1) * 100);
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by murf (provider_options.style picks a voice style)');
  if (options.locale !== undefined) body.locale = options.locale;
  if (options.style !== undefined) body.style = options.style;
  if (options.pitch !== undefined) body.pitch = options.pitch;
  if (options.variation !== undefined) {
    if (input.modelId === 'GEN2') body.variation = options.variation;
    else warnings.push(`variation ignored: murf offers it on GEN2 only`);
  }
  return {
    method: 'POST',
    path: '/v1/speech/stream',
    headers: { 'api-key': credentials.apiKey, 'content-type': 'application/json', accept: 'application/octet-stream' },
    body: JSON.stringify(body),
    warnings,
  };
}
