// Resemble AI text to speech: mapping, error parsing, catalog and live voices, bundled as a provider module with
// the SDK's two hosts (synthesis server for speech, management API for voices).

import { createHttpSpeechAdapter, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import { defineHttpProvider, type ProviderModule } from '../provider-module.js';
import { resembleDescriptor } from './resemble-catalog.js';
import { classifyResembleError } from './resemble-error.js';
import { RESEMBLE_DEFAULT_SYNTHESIS_URL, resembleSettings, type ResembleSettings } from './resemble-settings.js';
import { buildResembleSpeechRequest, resembleProviderOptions } from './resemble-speech-model.js';
import { listResembleVoices } from './resemble-voices.js';

const definition: HttpProviderDefinition = {
  id: 'resemble',
  defaultBaseUrl: RESEMBLE_DEFAULT_SYNTHESIS_URL,
  descriptor: resembleDescriptor,
  buildRequest: buildResembleSpeechRequest,
  classifyError: classifyResembleError,
};

export const resembleProvider: ProviderModule<ResembleSettings> = {
  ...defineHttpProvider({
    ...definition,
    settings: resembleSettings,
    providerOptions: resembleProviderOptions,
    mp3Quality: 'none upstream (the HTTP stream is WAV only): 44.1 kHz PCM_16 resampled to 24 kHz and encoded by the router',
    testKit: () => import('./resemble-test-kit.js').then((kit) => kit.resembleTestKit),
  }),
  // Speech goes to the synthesis server, not to RESEMBLE_BASE_URL (the management API, as in the SDK).
  create: (config, context) =>
    createHttpSpeechAdapter(definition, {
      apiKey: config?.apiKey ?? '',
      baseUrl: config?.synthesisUrl,
      settings: config as Readonly<Record<string, unknown>> | undefined,
      firstByteTimeoutMs: context.attemptTimeoutMs,
      pools: context.pools,
    }),
  listVoices: listResembleVoices,
};

export { resembleDescriptor } from './resemble-catalog.js';
export { classifyResembleError } from './resemble-error.js';
export { RESEMBLE_DEFAULT_BASE_URL, RESEMBLE_DEFAULT_SYNTHESIS_URL, resembleSettings, type ResembleSettings } from './resemble-settings.js';
export { buildResembleSpeechRequest, RESEMBLE_SAMPLE_RATE, resembleProviderOptions } from './resemble-speech-model.js';
export type { ResembleStreamRequestBody, ResembleVoice } from './resemble-api-types.js';
export { listResembleVoices, normalizeResembleVoice } from './resemble-voices.js';
