// Fish Audio text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { fishDescriptor } from './fish-catalog.js';
import { classifyFishError } from './fish-error.js';
import { buildFishSpeechRequest, fishProviderOptions } from './fish-speech-model.js';
import { listFishVoices } from './fish-voices.js';

export const fishProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'fish',
    // As in the official fish-audio SDK (FishAudioEnvironment.Production): the bare origin; paths carry /v1.
    defaultBaseUrl: 'https://api.fish.audio',
    baseUrlConvention: 'bare origin, as the fish-audio SDK baseUrl; default https://api.fish.audio',
    descriptor: fishDescriptor,
    buildRequest: buildFishSpeechRequest,
    classifyError: classifyFishError,
    providerOptions: fishProviderOptions,
    mp3Quality: 'none upstream (Fish mp3 is 32/44.1 kHz only): 24 kHz pcm encoded to mp3 by the router',
    testKit: () => import('./fish-test-kit.js').then((kit) => kit.fishTestKit),
  }),
  // The account's own voice models, listed live; community models stay usable by id.
  listVoices: listFishVoices,
};

export { fishDescriptor } from './fish-catalog.js';
export { classifyFishError } from './fish-error.js';
export { buildFishSpeechRequest, fishProviderOptions } from './fish-speech-model.js';
export { listFishVoices, normalizeFishVoice } from './fish-voices.js';
export type { FishModelId, FishSpeechRequestBody } from './fish-api-types.js';
