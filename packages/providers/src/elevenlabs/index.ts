// ElevenLabs text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider } from '../provider-module.js';
import { elevenLabsDescriptor } from './elevenlabs-catalog.js';
import { parseElevenLabsErrorBody } from './elevenlabs-error.js';
import { buildElevenLabsSpeechRequest } from './elevenlabs-speech-model.js';

export const elevenLabsProvider = defineHttpProvider({
  id: 'elevenlabs',
  defaultBaseUrl: 'https://api.elevenlabs.io',
  descriptor: elevenLabsDescriptor,
  buildRequest: buildElevenLabsSpeechRequest,
  parseErrorBody: parseElevenLabsErrorBody,
});

export { elevenLabsDescriptor } from './elevenlabs-catalog.js';
export { parseElevenLabsErrorBody } from './elevenlabs-error.js';
export { buildElevenLabsSpeechRequest, elevenLabsProviderOptionRules } from './elevenlabs-speech-model.js';
export type { ElevenLabsModelId, ElevenLabsSpeechRequestBody } from './elevenlabs-api-types.js';
