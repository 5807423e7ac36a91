// Hume Octave text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { humeDescriptor } from './hume-catalog.js';
import { classifyHumeError } from './hume-error.js';
import { buildHumeSpeechRequest, humeProviderOptions } from './hume-speech-model.js';
import { listHumeVoices } from './hume-voices.js';

export const humeProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'hume',
    // As in the official `hume` SDK (HumeEnvironment.Prod.base): the bare origin; paths carry /v0.
    defaultBaseUrl: 'https://api.hume.ai',
    baseUrlConvention: 'bare origin, as the hume SDK baseUrl; default https://api.hume.ai',
    descriptor: humeDescriptor,
    buildRequest: buildHumeSpeechRequest,
    classifyError: classifyHumeError,
    providerOptions: humeProviderOptions,
    mp3Quality: 'none upstream (Hume streams 48 kHz only): 48 kHz pcm resampled to 24 kHz and encoded by the router',
    testKit: () => import('./hume-test-kit.js').then((kit) => kit.humeTestKit),
  }),
  // The live voice list (library and the account's own); the descriptor's voices stand in until it first succeeds.
  listVoices: listHumeVoices,
};

export { humeDescriptor } from './hume-catalog.js';
export { classifyHumeError } from './hume-error.js';
export { buildHumeSpeechRequest, humeProviderOptions } from './hume-speech-model.js';
export { listHumeVoices, normalizeHumeVoice } from './hume-voices.js';
export { HUME_MODEL_VERSIONS, type HumeSpeechRequestBody } from './hume-api-types.js';
