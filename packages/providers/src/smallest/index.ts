// Smallest.ai Waves (Lightning) text to speech: mapping, error parsing, catalog and live voices, bundled as a
// provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { smallestDescriptor } from './smallest-catalog.js';
import { classifySmallestError } from './smallest-error.js';
import { buildSmallestSpeechRequest, smallestProviderOptions } from './smallest-speech-model.js';
import { listSmallestVoices } from './smallest-voices.js';

export const smallestProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'smallest',
    // As the official SDK's `waves` environment: the bare origin; paths carry /waves/v1.
    defaultBaseUrl: 'https://api.smallest.ai',
    baseUrlConvention: 'bare origin, as the Smallest.ai SDK waves environment; default https://api.smallest.ai',
    descriptor: smallestDescriptor,
    buildRequest: buildSmallestSpeechRequest,
    classifyError: classifySmallestError,
    providerOptions: smallestProviderOptions,
    mp3Quality: 'output_format mp3 at sample_rate 24000 (bit rate chosen by Smallest.ai)',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    testKit: () => import('./smallest-test-kit.js').then((kit) => kit.smallestTestKit),
  }),
  listVoices: listSmallestVoices,
};

export { smallestDescriptor } from './smallest-catalog.js';
export { classifySmallestError } from './smallest-error.js';
export { buildSmallestSpeechRequest, SMALLEST_SAMPLE_RATE, smallestProviderOptions } from './smallest-speech-model.js';
export type { SmallestTtsRequestBody, SmallestVoice } from './smallest-api-types.js';
export { listSmallestVoices, normalizeSmallestVoice } from './smallest-voices.js';
