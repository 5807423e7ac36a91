// Pure mapping from the router's SpeechInput to Rime's POST /v1/rime-tts request.

import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { RimeSpeechRequestBody } from './rime-api-types.js';

/** Rime speakers are names like `luna` or `cove`; anything else cannot be one. */
const SPEAKER = /^[A-Za-z0-9_-]{1,64}$/;

export const rimeProviderOptions = z.strictObject({
  lang: z.string().regex(/^[a-z]{2,3}$/).optional().describe('Language code, e.g. eng, spa, fra (model-dependent)'),
  temperature: z.number().min(0).max(2).optional().describe('Arcana: sampling temperature'),
  top_p: z.number().min(0).max(1).optional().describe('Arcana: nucleus sampling'),
  repetition_penalty: z.number().min(1).max(2).optional().describe('Arcana: repetition penalty'),
  reduceLatency: z.boolean().optional().describe('Mist: lower latency at some cost in quality'),
});

export type RimeProviderOptions = z.infer<typeof rimeProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): RimeProviderOptions {
  return readProviderOptions('rime', options ?? {}, rimeProviderOptions).values as RimeProviderOptions;
}

/** 1/speed, rounded to three decimals: Rime's pace knobs are "greater is slower". */
function inverse(speed: number): number {
  return Math.round((1 / speed) * 1000) / 1000;
}

export function buildRimeSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  if (!SPEAKER.test(input.voice)) throw new InvalidSpeechRequestError('voice must be a Rime speaker name (letters, digits, _ or -)');
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const body: RimeSpeechRequestBody = { speaker: input.voice, text: input.text, modelId: input.modelId, samplingRate: 24_000, ...options };
  if (input.speed !== undefined) {
    if (input.modelId === 'mistv2' || input.modelId === 'mist') body.speedAlpha = inverse(input.speed);
    else if (input.modelId === 'mistv3' || input.modelId === 'coda') body.timeScaleFactor = inverse(input.speed);
    else warnings.push(`speed ignored: not supported by rime model ${input.modelId}`);
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by rime');
  return {
    method: 'POST',
    path: '/v1/rime-tts',
    headers: {
      authorization: `Bearer ${credentials.apiKey}`,
      accept: input.format === 'mp3' ? 'audio/mp3' : 'audio/pcm',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    warnings,
  };
}
