// LMNT text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { lmntDescriptor } from './lmnt-catalog.js';
import { classifyLmntError } from './lmnt-error.js';
import { buildLmntSpeechRequest, lmntProviderOptions } from './lmnt-speech-model.js';
import { listLmntVoices } from './lmnt-voices.js';

export const lmntProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'lmnt',
    // As in the official lmnt-node SDK (LMNT_BASE_URL): the bare origin; paths carry /v1.
    defaultBaseUrl: 'https://api.lmnt.com',
    baseUrlConvention: 'bare origin, as LMNT_BASE_URL in the lmnt-node SDK; default https://api.lmnt.com',
    descriptor: lmntDescriptor,
    buildRequest: buildLmntSpeechRequest,
    classifyError: classifyLmntError,
    providerOptions: lmntProviderOptions,
    mp3Quality: 'mp3 24 kHz 96 kbps (LMNT streams mp3 at 96 kbps only)',
    testKit: () => import('./lmnt-test-kit.js').then((kit) => kit.lmntTestKit),
  }),
  // The live voice list (system voices and the account's own); the descriptor's voices stand in until it first succeeds.
  listVoices: listLmntVoices,
};

export { lmntDescriptor } from './lmnt-catalog.js';
export { classifyLmntError } from './lmnt-error.js';
export { buildLmntSpeechRequest, lmntProviderOptions } from './lmnt-speech-model.js';
export { listLmntVoices, normalizeLmntVoice } from './lmnt-voices.js';
export { LMNT_API_VERSION, type LmntModelId, type LmntSpeechRequestBody } from './lmnt-api-types.js';
