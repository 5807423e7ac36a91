// Murf text to speech: mapping, error parsing, catalog and live voices, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { murfDescriptor } from './murf-catalog.js';
import { classifyMurfError } from './murf-error.js';
import { buildMurfSpeechRequest, murfProviderOptions } from './murf-speech-model.js';
import { listMurfVoices } from './murf-voices.js';

export const murfProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'murf',
    // As in the official murf-python-sdk (MurfEnvironment.DEFAULT.base): the bare origin; paths carry /v1.
    defaultBaseUrl: 'https://api.murf.ai',
    baseUrlConvention: 'bare origin, as the Murf SDK base environment; default https://api.murf.ai (regional hosts such as https://global.api.murf.ai also work)',
    descriptor: murfDescriptor,
    buildRequest: buildMurfSpeechRequest,
    classifyError: classifyMurfError,
    providerOptions: murfProviderOptions,
    mp3Quality: 'mp3 24 kHz mono (format MP3, sampleRate 24000; Murf picks the bit rate)',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    testKit: () => import('./murf-test-kit.js').then((kit) => kit.murfTestKit),
  }),
  // The live voice list (both models' lists, merged); the descriptor's voices stand in until it first succeeds.
  listVoices: listMurfVoices,
};

export { murfDescriptor } from './murf-catalog.js';
export { classifyMurfError } from './murf-error.js';
export { buildMurfSpeechRequest, murfProviderOptions, MURF_SPEED_RANGE } from './murf-speech-model.js';
export type { MurfApiVoice, MurfStreamRequestBody } from './murf-api-types.js';
export { listMurfVoices, normalizeMurfVoice } from './murf-voices.js';
