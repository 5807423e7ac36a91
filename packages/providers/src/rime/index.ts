// Rime text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { rimeDescriptor } from './rime-catalog.js';
import { classifyRimeError } from './rime-error.js';
import { buildRimeSpeechRequest, rimeProviderOptions } from './rime-speech-model.js';
import { listRimeVoices } from './rime-voices.js';

export const rimeProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'rime',
    // Rime's documented endpoint is https://users.rime.ai/v1/rime-tts: the base is the bare origin.
    defaultBaseUrl: 'https://users.rime.ai',
    baseUrlConvention: 'bare origin of Rime\'s documented endpoint; default https://users.rime.ai (requests go to <base>/v1/rime-tts)',
    descriptor: rimeDescriptor,
    buildRequest: buildRimeSpeechRequest,
    classifyError: classifyRimeError,
    providerOptions: rimeProviderOptions,
    mp3Quality: 'Accept audio/mp3 at samplingRate 24000 (Rime\'s default mp3 bit rate)',
    testKit: () => import('./rime-test-kit.js').then((kit) => kit.rimeTestKit),
  }),
  // Rime's public speaker catalog, listed live; the descriptor's speakers stand in until it first succeeds.
  listVoices: listRimeVoices,
};

export { rimeDescriptor } from './rime-catalog.js';
export { classifyRimeError } from './rime-error.js';
export { buildRimeSpeechRequest, rimeProviderOptions } from './rime-speech-model.js';
export { listRimeVoices, readRimeCatalog } from './rime-voices.js';
export type { RimeModelId, RimeSpeechRequestBody } from './rime-api-types.js';
