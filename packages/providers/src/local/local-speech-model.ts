// Pure mapping from the router's SpeechInput to a request for the local synthesizer.

import type { LocalSynthesisRequest } from '@voice-router/speech-espeak';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import { NO_PROVIDER_OPTIONS, readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import { LOCAL_MODEL_ID } from './local-catalog.js';

export interface LocalSpeechMapping {
  request: LocalSynthesisRequest;
  warnings: string[];
}

export function buildLocalSynthesisRequest(input: SpeechInput, voiceIds: ReadonlySet<string>): LocalSpeechMapping {
  if (input.modelId !== LOCAL_MODEL_ID) {
    throw new InvalidSpeechRequestError(`unknown local model ${quoteName(input.modelId)}; use ${LOCAL_MODEL_ID}`);
  }
  if (!voiceIds.has(input.voice)) throw new InvalidSpeechRequestError(`unknown local voice ${quoteName(input.voice)}`);
  const { warnings } = readProviderOptions('local', input.providerOptions, NO_PROVIDER_OPTIONS);
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by local');
  const request: LocalSynthesisRequest = { text: input.text, voice: input.voice, format: input.format };
  if (input.speed !== undefined) request.speed = input.speed;
  return { request, warnings };
}
