// Azure AI Speech text to speech over REST: SSML mapping, error classification and catalog, with settings
// in the Speech ecosystem's own names (a key and a region rather than a base URL).

import { createHttpSpeechAdapter, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import type { ProviderModule } from '../provider-module.js';
import { azureDescriptor } from './azure-catalog.js';
import { classifyAzureError } from './azure-error.js';
import { azureOrigin, azureSettings, type AzureSettings } from './azure-settings.js';
import { azureProviderOptions, buildAzureSpeechRequest } from './azure-speech-model.js';
import { listAzureVoices } from './azure-voices.js';

function definition(settings: AzureSettings): HttpProviderDefinition {
  return {
    id: 'azure',
    defaultBaseUrl: azureOrigin(settings),
    descriptor: azureDescriptor,
    buildRequest: buildAzureSpeechRequest,
    classifyError: classifyAzureError,
  };
}

export const azureProvider: ProviderModule<AzureSettings> = {
  id: 'azure',
  descriptor: azureDescriptor,
  settings: azureSettings,
  providerOptions: azureProviderOptions,
  mp3Quality: 'audio-24khz-96kbitrate-mono-mp3 (mp3 24 kHz 96 kbps); provider_options mp3_format picks another',
  output: {
    mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
  },
  isConfigured: (config) => Boolean(config?.apiKey) && Boolean(config?.region || config?.baseUrl),
  create: (config, context) =>
    createHttpSpeechAdapter(definition(config ?? {}), {
      apiKey: config?.apiKey ?? '',
      settings: config as Readonly<Record<string, unknown>> | undefined,
      firstByteTimeoutMs: context.attemptTimeoutMs,
      pools: context.pools,
    }),
  listVoices: listAzureVoices,
  testKit: () => import('./azure-test-kit.js').then((kit) => kit.azureTestKit),
};

export { azureDescriptor } from './azure-catalog.js';
export { classifyAzureError } from './azure-error.js';
export { AZURE_DEFAULT_MP3, azureProviderOptions, buildAzureSpeechRequest } from './azure-speech-model.js';
export { buildAzureSsml, escapeXml } from './azure-ssml.js';
export { azureSettings, type AzureSettings } from './azure-settings.js';
export { AZURE_MP3_FORMATS, AZURE_PCM_FORMAT, type AzureVoiceListEntry } from './azure-api-types.js';
export { listAzureVoices, normalizeAzureVoice } from './azure-voices.js';
