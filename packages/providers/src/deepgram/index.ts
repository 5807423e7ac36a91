// Deepgram Aura text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { deepgramDescriptor } from './deepgram-catalog.js';
import { classifyDeepgramError } from './deepgram-error.js';
import { buildDeepgramSpeechRequest, DEEPGRAM_MP3_SAMPLE_RATE, deepgramProviderOptions } from './deepgram-speech-model.js';
import { listDeepgramVoices } from './deepgram-voices.js';

export const deepgramProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'deepgram',
    // As in the official @deepgram/sdk (environment `https://api.deepgram.com`): the bare origin; paths carry /v1.
    defaultBaseUrl: 'https://api.deepgram.com',
    baseUrlConvention: 'bare origin, as the @deepgram/sdk environment; default https://api.deepgram.com',
    descriptor: deepgramDescriptor,
    buildRequest: buildDeepgramSpeechRequest,
    classifyError: classifyDeepgramError,
    providerOptions: deepgramProviderOptions,
    mp3Quality: 'mp3 22.05 kHz 48 kbps (Deepgram mp3 is 22.05 kHz only); provider_options mp3_bit_rate 32000 picks 32 kbps',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: DEEPGRAM_MP3_SAMPLE_RATE, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    testKit: () => import('./deepgram-test-kit.js').then((kit) => kit.deepgramTestKit),
  }),
  // The live model list (GET /v1/models); the descriptor's fixed voices stand in until it first succeeds.
  listVoices: listDeepgramVoices,
};

export { deepgramDescriptor, AURA_1_VOICES, AURA_2_VOICES } from './deepgram-catalog.js';
export { classifyDeepgramError } from './deepgram-error.js';
export { listDeepgramVoices, normalizeDeepgramVoice } from './deepgram-voices.js';
export { buildDeepgramSpeechRequest, deepgramProviderOptions, deepgramUpstreamModel, DEEPGRAM_MP3_SAMPLE_RATE } from './deepgram-speech-model.js';
export type { DeepgramEncoding, DeepgramErrorBody, DeepgramSpeakBody, DeepgramSpeakQuery } from './deepgram-api-types.js';
