// Neuphonic text to speech over SSE: mapping, error parsing, catalog and live voices, bundled as a provider module.

import { createHttpSpeechAdapter, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import { defineHttpProvider, type ProviderModule } from '../provider-module.js';
import { neuphonicDescriptor } from './neuphonic-catalog.js';
import { classifyNeuphonicError } from './neuphonic-error.js';
import { neuphonicBaseUrl, neuphonicSettings, type NeuphonicSettings } from './neuphonic-settings.js';
import { buildNeuphonicSpeechRequest, neuphonicProviderOptions } from './neuphonic-speech-model.js';
import { listNeuphonicVoices } from './neuphonic-voices.js';

const definition: HttpProviderDefinition = {
  id: 'neuphonic',
  defaultBaseUrl: neuphonicBaseUrl(undefined),
  descriptor: neuphonicDescriptor,
  buildRequest: buildNeuphonicSpeechRequest,
  classifyError: classifyNeuphonicError,
};

export const neuphonicProvider: ProviderModule<NeuphonicSettings> = {
  ...defineHttpProvider({
    ...definition,
    settings: neuphonicSettings,
    providerOptions: neuphonicProviderOptions,
    mp3Quality: 'none upstream (the HTTP API streams pcm in SSE): 24 kHz pcm_linear encoded by the router',
    testKit: () => import('./neuphonic-test-kit.js').then((kit) => kit.neuphonicTestKit),
  }),
  // NEUPHONIC_BASE_URL may be a bare host, as the SDKs take it.
  create: (config, context) =>
    createHttpSpeechAdapter(definition, {
      apiKey: config?.apiKey ?? '',
      baseUrl: neuphonicBaseUrl(config?.baseUrl),
      settings: config as Readonly<Record<string, unknown>> | undefined,
      firstByteTimeoutMs: context.attemptTimeoutMs,
      pools: context.pools,
    }),
  listVoices: listNeuphonicVoices,
};

export { neuphonicDescriptor } from './neuphonic-catalog.js';
export { classifyNeuphonicError } from './neuphonic-error.js';
export { NEUPHONIC_DEFAULT_HOST, neuphonicBaseUrl, neuphonicSettings, type NeuphonicSettings } from './neuphonic-settings.js';
export { buildNeuphonicSpeechRequest, NEUPHONIC_SAMPLE_RATE, neuphonicProviderOptions } from './neuphonic-speech-model.js';
export type { NeuphonicSpeakRequestBody, NeuphonicVoice } from './neuphonic-api-types.js';
export { listNeuphonicVoices, normalizeNeuphonicVoice } from './neuphonic-voices.js';
