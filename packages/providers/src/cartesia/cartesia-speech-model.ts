// Pure mapping from the router's SpeechInput to Cartesia's POST /tts/bytes request.

import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { z } from 'zod';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import {
  CARTESIA_API_VERSION,
  type CartesiaGenerationConfig,
  type CartesiaOutputFormat,
  type CartesiaSpeechRequestBody,
} from './cartesia-api-types.js';

const PROVIDER = 'cartesia';
export const CARTESIA_SPEED_RANGE = [0.6, 1.5] as const;

/** Cartesia's standard MP3 (its documented example): 44.1 kHz at 128 kbps; provider_options pick another. */
export const CARTESIA_DEFAULT_MP3 = { sample_rate: 44_100, bit_rate: 128_000 } as const;
export const CARTESIA_MP3_SAMPLE_RATES = [8000, 16_000, 22_050, 24_000, 44_100, 48_000] as const;
export const CARTESIA_MP3_BIT_RATES = [32_000, 64_000, 96_000, 128_000, 192_000] as const;
/** The router's pcm is fixed: s16le, 24 kHz, mono. */
const PCM_FORMAT: CartesiaOutputFormat = { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24_000 };

const oneOf = <T extends number>(values: readonly T[]) => z.union(values.map((value) => z.literal(value)) as [z.ZodLiteral<T>, ...z.ZodLiteral<T>[]]);

export const cartesiaProviderOptions = z.object({
  language: z.string().max(16).optional().describe('language of the transcript (not with locale)'),
  locale: z.string().max(16).optional().describe('locale of the transcript (not with language)'),
  normalization: z.string().max(16).optional(),
  pronunciation_dict_id: z.string().max(128).optional(),
  volume: z.number().min(0.5).max(2).optional().describe('generation_config.volume (sonic-3 family)'),
  emotion: z.string().max(64).optional().describe('generation_config.emotion (sonic-3 family)'),
  mp3_sample_rate: oneOf(CARTESIA_MP3_SAMPLE_RATES).optional().describe('output_format.sample_rate for mp3 (default 44100)'),
  mp3_bit_rate: oneOf(CARTESIA_MP3_BIT_RATES).optional().describe('output_format.bit_rate for mp3 (default 128000)'),
});

/** generation_config exists on the sonic-3 family only; sonic-2 and turbo snapshots reject it. */
function supportsGenerationConfig(modelId: string): boolean {
  return !/^sonic-(2|turbo)/.test(modelId);
}

export function buildCartesiaSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, cartesiaProviderOptions);
  if (values.language !== undefined && values.locale !== undefined) {
    throw new InvalidSpeechRequestError('provider options "language" and "locale" are mutually exclusive');
  }
  const body: CartesiaSpeechRequestBody = {
    model_id: input.modelId,
    transcript: input.text,
    voice: { id: input.voice },
    output_format: PCM_FORMAT,
  };
  if (input.format === 'mp3') {
    body.output_format = {
      container: 'mp3',
      sample_rate: (values.mp3_sample_rate as number | undefined) ?? CARTESIA_DEFAULT_MP3.sample_rate,
      bit_rate: (values.mp3_bit_rate as number | undefined) ?? CARTESIA_DEFAULT_MP3.bit_rate,
    };
  } else if (values.mp3_sample_rate !== undefined || values.mp3_bit_rate !== undefined) {
    warnings.push('provider options "mp3_sample_rate" and "mp3_bit_rate" ignored: pcm is always pcm_s16le at 24 kHz');
  }
  for (const name of ['language', 'locale', 'normalization', 'pronunciation_dict_id'] as const) {
    if (values[name] !== undefined) body[name] = values[name] as string;
  }

  const generation: CartesiaGenerationConfig = {};
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...CARTESIA_SPEED_RANGE);
    generation.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (values.volume !== undefined) generation.volume = values.volume as number;
  if (values.emotion !== undefined) generation.emotion = values.emotion as string;
  if (Object.keys(generation).length > 0) {
    if (!supportsGenerationConfig(input.modelId)) {
      warnings.push(`speed, volume and emotion ignored: not supported by cartesia model ${input.modelId}`);
    } else {
      body.generation_config = generation;
      if (input.modelId.startsWith('sonic-3.5') && (generation.speed !== undefined || generation.volume !== undefined)) {
        warnings.push('speed and volume may be ignored: cartesia has temporarily disabled them on sonic-3.5');
      }
    }
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by cartesia');

  return {
    method: 'POST',
    path: '/tts/bytes',
    headers: {
      authorization: `Bearer ${credentials.apiKey}`,
      'cartesia-version': CARTESIA_API_VERSION,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    warnings,
  };
}
