// ElevenLabs text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { listElevenLabsVoices } from './elevenlabs-voices.js';
import { elevenLabsDescriptor } from './elevenlabs-catalog.js';
import { classifyElevenLabsError } from './elevenlabs-error.js';
import { buildElevenLabsSpeechRequest, ELEVENLABS_DEFAULT_MP3_FORMAT, elevenLabsProviderOptions } from './elevenlabs-speech-model.js';

export const elevenLabsProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'elevenlabs',
    // As in the official JS SDK (ELEVENLABS_BASE_URL): no version path; request paths start with /v1/.
    defaultBaseUrl: 'https://api.elevenlabs.io',
    descriptor: elevenLabsDescriptor,
    buildRequest: buildElevenLabsSpeechRequest,
    classifyError: classifyElevenLabsError,
    providerOptions: elevenLabsProviderOptions,
    mp3Quality: `${ELEVENLABS_DEFAULT_MP3_FORMAT} (44.1 kHz, 128 kbps); provider_options.output_format picks another mp3_* format`,
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 44_100, channels: 1, framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
    baseUrlConvention: 'bare origin, as ELEVENLABS_BASE_URL in the ElevenLabs SDK; default https://api.elevenlabs.io',
    testKit: () => import('./elevenlabs-test-kit.js').then((kit) => kit.elevenLabsTestKit),
  }),
  // The live voice list (paged to the end); the descriptor's voices stand in until it first succeeds.
  listVoices: listElevenLabsVoices,
};

export { elevenLabsDescriptor } from './elevenlabs-catalog.js';
export { classifyElevenLabsError } from './elevenlabs-error.js';
export { buildElevenLabsSpeechRequest, ELEVENLABS_DEFAULT_MP3_FORMAT, ELEVENLABS_MP3_FORMATS, elevenLabsProviderOptions } from './elevenlabs-speech-model.js';
export type { ElevenLabsModelId, ElevenLabsSpeechRequestBody } from './elevenlabs-api-types.js';
export { listElevenLabsVoices, normalizeElevenLabsVoice } from './elevenlabs-voices.js';
