// Pure mapping from the router's SpeechInput to Cartesia's POST /tts/bytes request.

import { InvalidSpeechRequestError } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions, type ProviderOptionRule } from '../shared/provider-options.js';
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

const OUTPUT_FORMATS: Record<SpeechInput['format'], CartesiaOutputFormat> = {
  mp3: { container: 'mp3', sample_rate: 24_000, bit_rate: 128_000 },
  pcm: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24_000 },
};

export const cartesiaProviderOptionRules: Record<string, ProviderOptionRule> = {
  language: { kind: 'string', maxLength: 16 },
  locale: { kind: 'string', maxLength: 16 },
  normalization: { kind: 'string', maxLength: 16 },
  pronunciation_dict_id: { kind: 'string', maxLength: 128 },
  volume: { kind: 'number', minimum: 0.5, maximum: 2 },
  emotion: { kind: 'string', maxLength: 64 },
};

/** generation_config exists on the sonic-3 family only; sonic-2 and turbo snapshots reject it. */
function supportsGenerationConfig(modelId: string): boolean {
  return !/^sonic-(2|turbo)/.test(modelId);
}

export function buildCartesiaSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, cartesiaProviderOptionRules);
  if (values.language !== undefined && values.locale !== undefined) {
    throw new InvalidSpeechRequestError('provider options "language" and "locale" are mutually exclusive');
  }
  const body: CartesiaSpeechRequestBody = {
    model_id: input.modelId,
    transcript: input.text,
    voice: { id: input.voice },
    output_format: OUTPUT_FORMATS[input.format],
  };
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
