// Pure mapping from the router's SpeechInput to Fish Audio's POST /v1/tts request (JSON body, model header).

import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { clampSpeed } from '../shared/speech-checks.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { FishSpeechRequestBody } from './fish-api-types.js';

const PROVIDER = 'fish';
export const FISH_SPEED_RANGE = [0.5, 2] as const;
/** Fish voice model ids are 32 lower-case hex characters. */
const VOICE_ID = /^[0-9a-f]{32}$/;

export const fishProviderOptions = z.strictObject({
  temperature: z.number().min(0).max(1).optional().describe('Sampling temperature (Fish default 0.7)'),
  top_p: z.number().min(0).max(1).optional().describe('Nucleus sampling (Fish default 0.7)'),
  volume: z.number().min(-20).max(20).optional().describe('Volume change in dB (prosody.volume)'),
  normalize: z.boolean().optional().describe('Normalise numbers and text before speaking'),
  latency: z.enum(['low', 'normal', 'balanced']).optional().describe('Latency mode'),
  chunk_length: z.number().int().min(100).max(300).optional().describe('Characters per synthesis chunk'),
});

export type FishProviderOptions = z.infer<typeof fishProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): FishProviderOptions {
  return readProviderOptions('fish', options ?? {}, fishProviderOptions).values as FishProviderOptions;
}

export function buildFishSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  if (!VOICE_ID.test(input.voice)) throw new InvalidSpeechRequestError('voice must be a Fish Audio voice model id (32 hex characters)');
  const { volume, ...options } = readOptions(input.providerOptions);
  const warnings: string[] = [];
  // Fish's mp3 is 32/44.1 kHz only; 24 kHz pcm serves both formats (mp3 encoded by the router).
  const body: FishSpeechRequestBody = { text: input.text, reference_id: input.voice, format: 'pcm', sample_rate: 24_000, ...options };
  const prosody: NonNullable<FishSpeechRequestBody['prosody']> = {};
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...FISH_SPEED_RANGE);
    prosody.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (volume !== undefined) prosody.volume = volume;
  if (Object.keys(prosody).length > 0) body.prosody = prosody;
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by fish');
  return {
    method: 'POST',
    path: '/v1/tts',
    headers: { authorization: `Bearer ${credentials.apiKey}`, model: input.modelId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    output: input.format === 'mp3' ? { framing: { kind: 'raw' }, container: 'raw', encoding: 's16le', sampleRate: 24_000, channels: 1 } : undefined,
  };
}
