// Pure mapping from the router's SpeechInput to Inworld's POST /tts/v1/voice:stream request (NDJSON answer).

import type { OutputDescription } from '@voice-router/audio';
import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { InworldSpeechRequestBody } from './inworld-api-types.js';

const PROVIDER = 'inworld';
export const INWORLD_SPEED_RANGE = [0.5, 1.5] as const;
export const INWORLD_SAMPLE_RATE = 24_000;
export const INWORLD_MP3_BIT_RATE = 128_000;

/** Each NDJSON line carries base64 audio in result.audioContent; a line with `error` is a mid-stream failure. */
const NDJSON = { kind: 'ndjson', audioField: 'result.audioContent', encoding: 'base64', errorField: 'error' } as const;
const MP3_OUTPUT: OutputDescription = { framing: NDJSON, container: 'mp3' };
const PCM_OUTPUT: OutputDescription = { framing: NDJSON, container: 'raw', encoding: 's16le', sampleRate: INWORLD_SAMPLE_RATE, channels: 1 };

export const inworldProviderOptions = z.strictObject({
  temperature: z.number().min(0).max(2).optional().describe('Expressiveness, 0 to 2 (Inworld default 1); ignored by inworld-tts-2'),
  delivery_mode: z.enum(['STABLE', 'BALANCED', 'CREATIVE']).optional().describe('inworld-tts-2 only: output variation (Inworld default BALANCED)'),
  apply_text_normalization: z.enum(['ON', 'OFF']).optional().describe('Expand numbers, dates and abbreviations before speaking'),
});

export type InworldProviderOptions = z.infer<typeof inworldProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): InworldProviderOptions {
  return readProviderOptions(PROVIDER, options ?? {}, inworldProviderOptions).values as InworldProviderOptions;
}

export function buildInworldSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const isMp3 = input.format === 'mp3';
  const body: InworldSpeechRequestBody = {
    text: input.text,
    voiceId: input.voice,
    modelId: input.modelId,
    audioConfig: isMp3
      ? { audioEncoding: 'MP3', sampleRateHertz: INWORLD_SAMPLE_RATE, bitRate: INWORLD_MP3_BIT_RATE }
      : { audioEncoding: 'PCM', sampleRateHertz: INWORLD_SAMPLE_RATE },
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...INWORLD_SPEED_RANGE);
    body.audioConfig!.speakingRate = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by inworld');
  if (options.temperature !== undefined) {
    if (input.modelId === 'inworld-tts-2') warnings.push('temperature ignored: inworld-tts-2 uses delivery_mode instead');
    else body.temperature = options.temperature;
  }
  if (options.delivery_mode !== undefined) {
    if (input.modelId === 'inworld-tts-2') body.deliveryMode = options.delivery_mode;
    else warnings.push('delivery_mode ignored: inworld offers it on inworld-tts-2 only');
  }
  if (options.apply_text_normalization !== undefined) body.applyTextNormalization = options.apply_text_normalization;
  return {
    method: 'POST',
    path: '/tts/v1/voice:stream',
    // The key is the Base64 credential as Inworld issues it: sent as is, never re-encoded.
    headers: { authorization: `Basic ${credentials.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    output: isMp3 ? MP3_OUTPUT : PCM_OUTPUT,
  };
}
