// Inworld TTS: mapping, error parsing, catalog and live voices, bundled as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { inworldDescriptor } from './inworld-catalog.js';
import { classifyInworldError } from './inworld-error.js';
import { buildInworldSpeechRequest, inworldProviderOptions } from './inworld-speech-model.js';
import { listInworldVoices } from './inworld-voices.js';

export const inworldProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'inworld',
    // As in the official @inworld/tts SDK (INWORLD_BASE_URL): the bare origin; paths carry /tts/v1.
    defaultBaseUrl: 'https://api.inworld.ai',
    baseUrlConvention: 'bare origin, as INWORLD_BASE_URL in the @inworld/tts SDK; default https://api.inworld.ai',
    descriptor: inworldDescriptor,
    buildRequest: buildInworldSpeechRequest,
    classifyError: classifyInworldError,
    providerOptions: inworldProviderOptions,
    mp3Quality: 'mp3 24 kHz 128 kbps (audioEncoding MP3, sampleRateHertz 24000, bitRate 128000), base64 in NDJSON',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'ndjson-base64' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'ndjson-base64' },
    },
    testKit: () => import('./inworld-test-kit.js').then((kit) => kit.inworldTestKit),
  }),
  // The live voice list; the descriptor's voices stand in until it first succeeds.
  listVoices: listInworldVoices,
};

export { inworldDescriptor } from './inworld-catalog.js';
export { classifyInworldError } from './inworld-error.js';
export { buildInworldSpeechRequest, inworldProviderOptions, INWORLD_SPEED_RANGE } from './inworld-speech-model.js';
export type { InworldSpeechRequestBody, InworldVoiceInfo } from './inworld-api-types.js';
export { listInworldVoices, normalizeInworldVoice } from './inworld-voices.js';
