// Builds a provider module for any service that speaks OpenAI's /v1/audio/speech dialect, so adding one is
// a catalog plus a few settings rather than a copy of the OpenAI adapter.

import type { UpstreamErrorClassifier } from '../http/send-speech-request.js';
import { defineHttpProvider, type HttpProviderConfig, type ProviderModule } from '../provider-module.js';
import type { SettingsSpec } from '../settings/provider-settings.js';
import type { ProviderTestKit } from '../testing/test-kit.js';
import type { ProviderDescriptor } from '../types.js';
import { classifyOpenAIError } from './openai-error.js';
import { buildOpenAICompatibleSpeechRequest, openAISpeechSettings, type OpenAICompatibleSpeechSettings } from './openai-speech-model.js';

export interface OpenAICompatibleProviderOptions {
  id: string;
  /** Base URL as the service's own SDK takes it (requests go to `<base><settings.path>`, `/audio/speech` by default). */
  defaultBaseUrl: string;
  descriptor: ProviderDescriptor;
  /** Differences from OpenAI (path, speed range, instructions, extra options, formats); `provider` defaults to `id`. */
  settings?: Partial<OpenAICompatibleSpeechSettings>;
  /** Defaults to OpenAI's `{error: {code, type, param}}` classifier. */
  classifyError?: UpstreamErrorClassifier;
  /** Environment variables; default `<ID>_API_KEY` and `<ID>_BASE_URL`. */
  environment?: SettingsSpec;
  baseUrlConvention?: string;
  mp3Quality?: string;
  /** What the upstream sends by default per router format (catalog data); default: mp3 and pcm s16le 24 kHz as asked. */
  output?: ProviderModule['output'];
  testKit?(): Promise<ProviderTestKit>;
}

export function defineOpenAICompatibleProvider(options: OpenAICompatibleProviderOptions): ProviderModule<HttpProviderConfig> {
  const settings: OpenAICompatibleSpeechSettings = { ...openAISpeechSettings, provider: options.id, ...options.settings };
  return defineHttpProvider({
    id: options.id,
    defaultBaseUrl: options.defaultBaseUrl,
    descriptor: options.descriptor,
    buildRequest: (input, credentials) => buildOpenAICompatibleSpeechRequest(input, credentials, settings),
    classifyError: options.classifyError ?? classifyOpenAIError,
    providerOptions: settings.providerOptions,
    settings: options.environment,
    baseUrlConvention: options.baseUrlConvention,
    mp3Quality: options.mp3Quality,
    testKit: options.testKit,
    output: options.output ?? {
      mp3: { container: 'mp3', encoding: 'mp3', framing: 'bytes' },
      pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    },
  });
}
