// Google Cloud Text-to-Speech over REST v1: mapping, error classification and catalog, with an API key or a
// service account (OAuth token per request, cached) as the ecosystem configures them.

import { createHttpSpeechAdapter, type HttpAdapterSettings, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import type { ProviderModule } from '../provider-module.js';
import type { SpeechAdapter } from '../types.js';
import { tokenSourceFor } from './google-auth.js';
import { googleDescriptor } from './google-catalog.js';
import { classifyGoogleError } from './google-error.js';
import { GOOGLE_DEFAULT_BASE_URL, googleSettings, readServiceAccountKey, type GoogleSettings } from './google-settings.js';
import { buildGoogleSpeechRequest, googleProviderOptions } from './google-speech-model.js';
import { listGoogleVoices } from './google-voices.js';

const definition: HttpProviderDefinition = {
  id: 'google',
  defaultBaseUrl: GOOGLE_DEFAULT_BASE_URL,
  descriptor: googleDescriptor,
  buildRequest: buildGoogleSpeechRequest,
  classifyError: classifyGoogleError,
};

/**
 * With a service account, each synthesis first takes an access token (cached until a minute before expiry)
 * and then runs through the shared HTTP adapter with it; the connection pools are shared either way.
 */
function serviceAccountAdapter(config: GoogleSettings & { credentialsFile: string }, adapterSettings: Omit<HttpAdapterSettings, 'apiKey'>): SpeechAdapter {
  const tokens = tokenSourceFor(config.credentialsFile, () => readServiceAccountKey(config.credentialsFile));
  return {
    descriptor: googleDescriptor,
    async synthesize(input, options) {
      const token = await tokens.accessToken(options.signal);
      const adapter = createHttpSpeechAdapter(definition, { ...adapterSettings, apiKey: token, settings: { ...config, bearer: true } });
      return adapter.synthesize(input, options);
    },
    async close() {},
  };
}

export const googleProvider: ProviderModule<GoogleSettings> = {
  id: 'google',
  descriptor: googleDescriptor,
  settings: googleSettings,
  providerOptions: googleProviderOptions,
  mp3Quality: "MP3 at 24 kHz, 32 kbps (Google's only MP3 bit rate)",
  output: {
    mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'json-base64' },
    pcm: { container: 'wav', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'json-base64' },
  },
  isConfigured: (config) => Boolean(config?.apiKey) || Boolean(config?.credentialsFile),
  create(config, context) {
    const adapterSettings = { baseUrl: config?.baseUrl, firstByteTimeoutMs: context.attemptTimeoutMs, pools: context.pools };
    if (config?.apiKey) return createHttpSpeechAdapter(definition, { ...adapterSettings, apiKey: config.apiKey, settings: { ...config, bearer: false } });
    if (config?.credentialsFile) return serviceAccountAdapter({ ...config, credentialsFile: config.credentialsFile }, adapterSettings);
    throw new TypeError('google: GOOGLE_API_KEY or GOOGLE_APPLICATION_CREDENTIALS is required');
  },
  listVoices: listGoogleVoices,
  testKit: () => import('./google-test-kit.js').then((kit) => kit.googleTestKit),
};

export { googleDescriptor, familyModelOf } from './google-catalog.js';
export { classifyGoogleError } from './google-error.js';
export { buildGoogleSpeechRequest, googleProviderOptions } from './google-speech-model.js';
export { googleSettings, type GoogleSettings } from './google-settings.js';
export { ServiceAccountTokenSource, signServiceAccountAssertion } from './google-auth.js';
export type { GoogleServiceAccountKey, GoogleSynthesizeRequest, GoogleVoice } from './google-api-types.js';
export { listGoogleVoices, normalizeGoogleVoice } from './google-voices.js';
