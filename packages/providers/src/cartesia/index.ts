// Cartesia text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider } from '../provider-module.js';
import { cartesiaDescriptor } from './cartesia-catalog.js';
import { classifyCartesiaError } from './cartesia-error.js';
import { buildCartesiaSpeechRequest } from './cartesia-speech-model.js';

export const cartesiaProvider = defineHttpProvider({
  id: 'cartesia',
  // As in the official JS SDK (CARTESIA_BASE_URL): no version path (the version travels in a header).
  defaultBaseUrl: 'https://api.cartesia.ai',
  descriptor: cartesiaDescriptor,
  buildRequest: buildCartesiaSpeechRequest,
  classifyError: classifyCartesiaError,
  baseUrlConvention: 'bare origin, as CARTESIA_BASE_URL in the Cartesia SDK; default https://api.cartesia.ai',
  testKit: () => import('./cartesia-test-kit.js').then((kit) => kit.cartesiaTestKit),
});

export { cartesiaDescriptor } from './cartesia-catalog.js';
export { classifyCartesiaError } from './cartesia-error.js';
export { buildCartesiaSpeechRequest, cartesiaProviderOptionRules } from './cartesia-speech-model.js';
export { CARTESIA_API_VERSION, type CartesiaModelId, type CartesiaSpeechRequestBody } from './cartesia-api-types.js';
