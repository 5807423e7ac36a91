// ElevenLabs text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider } from '../provider-module.js';
import { elevenLabsDescriptor } from './elevenlabs-catalog.js';
import { classifyElevenLabsError } from './elevenlabs-error.js';
import { buildElevenLabsSpeechRequest } from './elevenlabs-speech-model.js';

export const elevenLabsProvider = defineHttpProvider({
  id: 'elevenlabs',
  // As in the official JS SDK (ELEVENLABS_BASE_URL): no version path; request paths start with /v1/.
  defaultBaseUrl: 'https://api.elevenlabs.io',
  descriptor: elevenLabsDescriptor,
  buildRequest: buildElevenLabsSpeechRequest,
  classifyError: classifyElevenLabsError,
  baseUrlConvention: 'bare origin, as ELEVENLABS_BASE_URL in the ElevenLabs SDK; default https://api.elevenlabs.io',
  testKit: () => import('./elevenlabs-test-kit.js').then((kit) => kit.elevenLabsTestKit),
});

export { elevenLabsDescriptor } from './elevenlabs-catalog.js';
export { classifyElevenLabsError } from './elevenlabs-error.js';
export { buildElevenLabsSpeechRequest, elevenLabsProviderOptionRules } from './elevenlabs-speech-model.js';
export type { ElevenLabsModelId, ElevenLabsSpeechRequestBody } from './elevenlabs-api-types.js';
