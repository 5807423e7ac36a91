// MiniMax T2A v2: mapping, error parsing (errors inside HTTP 200), catalog and live voices, as a provider module.

import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import { miniMaxDescriptor } from './minimax-catalog.js';
import { classifyMiniMaxError } from './minimax-error.js';
import { buildMiniMaxSpeechRequest, miniMaxProviderOptions } from './minimax-speech-model.js';
import { listMiniMaxVoices } from './minimax-voices.js';

export const miniMaxProvider: ProviderModule<HttpProviderConfig> = {
  ...defineHttpProvider({
    id: 'minimax',
    // MiniMax's API host as its own tools use it (MINIMAX_API_HOST in its MCP server): the bare origin; paths carry /v1.
    defaultBaseUrl: 'https://api.minimax.io',
    baseUrlConvention: 'bare origin, as MiniMax\'s own tools take the API host; default https://api.minimax.io (mainland: https://api.minimaxi.com)',
    descriptor: miniMaxDescriptor,
    buildRequest: buildMiniMaxSpeechRequest,
    classifyError: classifyMiniMaxError,
    providerOptions: miniMaxProviderOptions,
    mp3Quality: 'mp3 24 kHz 128 kbps mono (audio_setting), hex in SSE events',
    output: {
      mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'sse-hex' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'sse-hex' },
    },
    testKit: () => import('./minimax-test-kit.js').then((kit) => kit.miniMaxTestKit),
  }),
  // The live voice list (system, cloned and generated voices); the descriptor's voices stand in until it succeeds.
  listVoices: listMiniMaxVoices,
};

export { miniMaxDescriptor } from './minimax-catalog.js';
export { classifyMiniMaxError } from './minimax-error.js';
export { buildMiniMaxSpeechRequest, miniMaxProviderOptions, MINIMAX_SPEED_RANGE } from './minimax-speech-model.js';
export { MINIMAX_CODES, type MiniMaxSpeechRequestBody } from './minimax-api-types.js';
export { listMiniMaxVoices, normalizeMiniMaxVoice } from './minimax-voices.js';
