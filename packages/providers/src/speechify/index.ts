// Speechify text to speech: mapping, error parsing, catalog and live voices, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { speechifyDescriptor } from './speechify-catalog.js';
import { classifySpeechifyError } from './speechify-error.js';
import { buildSpeechifySpeechRequest, speechifyProviderOptions } from './speechify-speech-model.js';
import { listSpeechifyVoices } from './speechify-voices.js';

export const speechifyProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'speechify',
    // The bare origin, as the Speechify SDKs' base URL (paths carry /v1); the current host per docs and Python SDK.
    defaultBaseUrl: 'https://api.speechify.ai',
    baseUrlConvention: 'bare origin, as the Speechify SDK baseUrl; default https://api.speechify.ai',
    descriptor: speechifyDescriptor,
    buildRequest: buildSpeechifySpeechRequest,
    classifyError: classifySpeechifyError,
    providerOptions: speechifyProviderOptions,
    mp3Quality: 'mp3 24 kHz 128 kbps (output_format mp3_24000_128)',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    testKit: () => import('./speechify-test-kit.js').then((kit) => kit.speechifyTestKit),
  }),
  // The live voice list; the descriptor's voices stand in until it first succeeds.
  listVoices: listSpeechifyVoices,
};

export { speechifyDescriptor } from './speechify-catalog.js';
export { classifySpeechifyError } from './speechify-error.js';
export { buildSpeechifySpeechRequest, SPEECHIFY_OUTPUT_FORMATS, speechifyProviderOptions } from './speechify-speech-model.js';
export type { SpeechifyStreamRequestBody, SpeechifyVoice } from './speechify-api-types.js';
export { listSpeechifyVoices, normalizeSpeechifyVoice } from './speechify-voices.js';
