// Cartesia text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { listCartesiaVoices } from './cartesia-voices.js';
import { cartesiaDescriptor } from './cartesia-catalog.js';
import { classifyCartesiaError } from './cartesia-error.js';
import { buildCartesiaSpeechRequest } from './cartesia-speech-model.js';

export const cartesiaProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'cartesia',
    // As in the official JS SDK (CARTESIA_BASE_URL): no version path (the version travels in a header).
    defaultBaseUrl: 'https://api.cartesia.ai',
    descriptor: cartesiaDescriptor,
    buildRequest: buildCartesiaSpeechRequest,
    classifyError: classifyCartesiaError,
  }),
  // The live voice list (paged to the end); the descriptor's voices stand in until it first succeeds.
  listVoices: listCartesiaVoices,
};

export { cartesiaDescriptor } from './cartesia-catalog.js';
export { classifyCartesiaError } from './cartesia-error.js';
export { buildCartesiaSpeechRequest, cartesiaProviderOptionRules } from './cartesia-speech-model.js';
export { CARTESIA_API_VERSION, type CartesiaModelId, type CartesiaSpeechRequestBody } from './cartesia-api-types.js';
export { listCartesiaVoices, normalizeCartesiaVoice } from './cartesia-voices.js';
