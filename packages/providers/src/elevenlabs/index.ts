// ElevenLabs text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { listElevenLabsVoices } from './elevenlabs-voices.js';
import { elevenLabsDescriptor } from './elevenlabs-catalog.js';
import { classifyElevenLabsError } from './elevenlabs-error.js';
import { buildElevenLabsSpeechRequest } from './elevenlabs-speech-model.js';

export const elevenLabsProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'elevenlabs',
    // As in the official JS SDK (ELEVENLABS_BASE_URL): no version path; request paths start with /v1/.
    defaultBaseUrl: 'https://api.elevenlabs.io',
    descriptor: elevenLabsDescriptor,
    buildRequest: buildElevenLabsSpeechRequest,
    classifyError: classifyElevenLabsError,
  }),
  // The live voice list (paged to the end); the descriptor's voices stand in until it first succeeds.
  listVoices: listElevenLabsVoices,
};

export { elevenLabsDescriptor } from './elevenlabs-catalog.js';
export { classifyElevenLabsError } from './elevenlabs-error.js';
export { buildElevenLabsSpeechRequest, elevenLabsProviderOptionRules } from './elevenlabs-speech-model.js';
export type { ElevenLabsModelId, ElevenLabsSpeechRequestBody } from './elevenlabs-api-types.js';
export { listElevenLabsVoices, normalizeElevenLabsVoice } from './elevenlabs-voices.js';
