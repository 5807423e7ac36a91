// Pure mapping from the router's SpeechInput to Neuphonic's POST /sse/speak/{lang_code} request (SSE answer).

import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { clampSpeed, encodePathSegment } from '../shared/speech-checks.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { NeuphonicSpeakRequestBody } from './neuphonic-api-types.js';

const PROVIDER = 'neuphonic';
export const NEUPHONIC_SPEED_RANGE = [0.7, 2] as const;
export const NEUPHONIC_SAMPLE_RATE = 24_000;
const VOICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const neuphonicProviderOptions = z.strictObject({
  lang_code: z.string().regex(/^[a-z]{2,3}(-[a-z]{2,4})?$/).optional().describe('Language of the text (en, es, de, nl, hi...); default en'),
  temperature: z.number().min(0).max(2).optional().describe('Sampling temperature'),
});

export type NeuphonicProviderOptions = z.infer<typeof neuphonicProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): NeuphonicProviderOptions {
  return readProviderOptions('neuphonic', options ?? {}, neuphonicProviderOptions).values as NeuphonicProviderOptions;
}

export function buildNeuphonicSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  if (input.modelId !== 'default') throw new InvalidSpeechRequestError(`model ${quoteName(input.modelId)} is not offered: neuphonic has one model, default`);
  if (!VOICE_ID.test(input.voice)) throw new InvalidSpeechRequestError('voice must be a Neuphonic voice id (a UUID)');
  const options = readOptions(input.providerOptions);
  const langCode = options.lang_code ?? 'en';
  const warnings: string[] = [];
  const body: NeuphonicSpeakRequestBody = {
    text: input.text,
    lang_code: langCode,
    voice_id: input.voice,
    sampling_rate: NEUPHONIC_SAMPLE_RATE,
    encoding: 'pcm_linear',
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...NEUPHONIC_SPEED_RANGE);
    body.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by neuphonic');
  return {
    method: 'POST',
    path: `/sse/speak/${encodePathSegment(langCode, 'lang_code')}`,
    headers: { 'x-api-key': credentials.apiKey, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    warnings,
    // Both formats come from the SSE's base64 pcm: already 24 kHz s16le mono for pcm, encoded for mp3.
    output: {
      framing: { kind: 'sse', audioField: 'data.audio', encoding: 'base64', errorField: 'errors' },
      container: 'raw',
      encoding: 's16le',
      sampleRate: NEUPHONIC_SAMPLE_RATE,
      channels: 1,
    },
  };
}
