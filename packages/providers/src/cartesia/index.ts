// Cartesia text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { listCartesiaVoices } from './cartesia-voices.js';
import { cartesiaDescriptor } from './cartesia-catalog.js';
import { classifyCartesiaError } from './cartesia-error.js';
import { buildCartesiaSpeechRequest, cartesiaProviderOptions } from './cartesia-speech-model.js';

export const cartesiaProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'cartesia',
    // As in the official JS SDK (CARTESIA_BASE_URL): no version path (the version travels in a header).
    defaultBaseUrl: 'https://api.cartesia.ai',
    descriptor: cartesiaDescriptor,
    buildRequest: buildCartesiaSpeechRequest,
    classifyError: classifyCartesiaError,
    providerOptions: cartesiaProviderOptions,
    mp3Quality: 'mp3 44.1 kHz 128 kbps; provider_options mp3_sample_rate / mp3_bit_rate pick another',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 44_100, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    baseUrlConvention: 'bare origin, as CARTESIA_BASE_URL in the Cartesia SDK; default https://api.cartesia.ai',
    testKit: () => import('./cartesia-test-kit.js').then((kit) => kit.cartesiaTestKit),
  }),
  // The live voice list (paged to the end); the descriptor's voices stand in until it first succeeds.
  listVoices: listCartesiaVoices,
};

export { cartesiaDescriptor } from './cartesia-catalog.js';
export { classifyCartesiaError } from './cartesia-error.js';
export {
  buildCartesiaSpeechRequest,
  CARTESIA_DEFAULT_MP3,
  CARTESIA_MP3_BIT_RATES,
  CARTESIA_MP3_SAMPLE_RATES,
  cartesiaProviderOptions,
} from './cartesia-speech-model.js';
export { CARTESIA_API_VERSION, type CartesiaModelId, type CartesiaSpeechRequestBody } from './cartesia-api-types.js';
export { listCartesiaVoices, normalizeCartesiaVoice } from './cartesia-voices.js';
