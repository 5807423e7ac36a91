// OpenAI text to speech: mapping, error parsing and catalog, bundled as a provider module.

import { defineHttpProvider } from '../provider-module.js';
import { openAIDescriptor } from './openai-catalog.js';
import { classifyOpenAIError } from './openai-error.js';
import { buildOpenAISpeechRequest, openAISpeechSettings } from './openai-speech-model.js';

export const openAIProvider = defineHttpProvider({
  id: 'openai',
  // As in the official SDK (and OPENAI_BASE_URL): the base includes the version path.
  defaultBaseUrl: 'https://api.openai.com/v1',
  descriptor: openAIDescriptor,
  buildRequest: buildOpenAISpeechRequest,
  classifyError: classifyOpenAIError,
  providerOptions: openAISpeechSettings.providerOptions,
  mp3Quality: 'OpenAI\'s only mp3 (24 kHz; bit rate not chosen by the API)',
  output: {
    mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
  },
  baseUrlConvention: 'includes the version path /v1, as OPENAI_BASE_URL in the OpenAI SDK; default https://api.openai.com/v1',
  testKit: () => import('./openai-test-kit.js').then((kit) => kit.openAITestKit),
});

export { openAIDescriptor } from './openai-catalog.js';
export { defineOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider.js';
export {
  OPENAI_COMPATIBLE_PREFIX,
  openAICompatibleHostModule,
  openAICompatibleHostModules,
  openAICompatibleHostSettings,
  parseOpenAICompatibleHosts,
  type OpenAICompatibleHost,
} from './openai-compatible-hosts.js';
export { classifyOpenAIError } from './openai-error.js';
export {
  buildOpenAICompatibleSpeechRequest,
  buildOpenAISpeechRequest,
  openAISpeechSettings,
  type OpenAICompatibleSpeechSettings,
} from './openai-speech-model.js';
export type { OpenAIBuiltInVoice, OpenAISpeechModelId, OpenAISpeechRequestBody } from './openai-api-types.js';
