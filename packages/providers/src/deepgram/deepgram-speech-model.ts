// Pure mapping from the router's SpeechInput to Deepgram's POST /v1/speak?model=...&encoding=... request.

import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { DeepgramSpeakBody, DeepgramSpeakQuery } from './deepgram-api-types.js';

/** Deepgram's mp3 sample rate is fixed (it refuses a sample_rate for mp3). */
export const DEEPGRAM_MP3_SAMPLE_RATE = 22_050;
export const DEEPGRAM_MP3_BIT_RATES = [32_000, 48_000] as const;
const DEFAULT_MP3_BIT_RATE = 48_000;
const PCM_SAMPLE_RATE = 24_000;
/** The documented speed range (aura-2). */
const SPEED_MIN = 0.7;
const SPEED_MAX = 1.5;
/** A voice is `name-language` (`thalia-en`); the model's own prefix is accepted too (`aura-2-thalia-en`). */
const VOICE_PATTERN = /^[a-z]+-[a-z]{2}$/;

/** provider_options Deepgram accepts, as the SDK names them. */
export const deepgramProviderOptions = z.strictObject({
  mp3_bit_rate: z
    .union([z.literal(32_000), z.literal(48_000)])
    .optional()
    .describe('mp3 bit rate in bits per second (Deepgram offers 32000 or 48000; default 48000)'),
  tag: z.string().min(1).max(128).optional().describe('Label for Deepgram usage reports'),
  mip_opt_out: z.boolean().optional().describe('Opt out of the Deepgram Model Improvement Program (see its pricing impact)'),
});

export type DeepgramProviderOptions = z.infer<typeof deepgramProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): DeepgramProviderOptions {
  return readProviderOptions('deepgram', options ?? {}, deepgramProviderOptions).values as DeepgramProviderOptions;
}

/** The upstream model string: the catalog model (`aura-2`) and the voice (`thalia-en`) joined. */
export function deepgramUpstreamModel(modelId: string, voice: string): string {
  const bare = voice.startsWith(`${modelId}-`) ? voice.slice(modelId.length + 1) : voice;
  if (!VOICE_PATTERN.test(bare)) {
    throw new InvalidSpeechRequestError(`voice ${quoteName(voice)} is not a Deepgram voice (name-language, e.g. thalia-en)`);
  }
  return `${modelId}-${bare}`;
}

export function buildDeepgramSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const query: DeepgramSpeakQuery =
    input.format === 'mp3'
      ? { model: deepgramUpstreamModel(input.modelId, input.voice), encoding: 'mp3', bit_rate: options.mp3_bit_rate ?? DEFAULT_MP3_BIT_RATE }
      : // Deepgram's docs disagree on the defaults: every parameter is sent explicitly.
        { model: deepgramUpstreamModel(input.modelId, input.voice), encoding: 'linear16', sample_rate: PCM_SAMPLE_RATE, container: 'none' };
  if (input.speed !== undefined) {
    if (input.modelId === 'aura') {
      warnings.push('speed ignored: not supported by deepgram aura (use aura-2)');
    } else {
      const clamped = clampSpeed('deepgram', input.speed, SPEED_MIN, SPEED_MAX);
      if (clamped.warning) warnings.push(clamped.warning);
      query.speed = clamped.speed;
    }
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by deepgram');
  if (options.tag !== undefined) query.tag = options.tag;
  if (options.mip_opt_out !== undefined) query.mip_opt_out = options.mip_opt_out;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) search.set(name, String(value));
  const body: DeepgramSpeakBody = { text: input.text };
  return {
    method: 'POST',
    path: `/v1/speak?${search.toString()}`,
    headers: {
      authorization: `Token ${credentials.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    warnings,
  };
}
