// Amazon Polly: SigV4-signed SynthesizeSpeech, bundled as a hand-written provider module (an access key alone is
// not enough: the secret, the region and the endpoint come from the AWS SDK's own environment variables).

import { createHttpSpeechAdapter, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import type { ProviderModule } from '../provider-module.js';
import { pollyDescriptor } from './polly-catalog.js';
import { classifyPollyError } from './polly-error.js';
import { pollyDefaultEndpoint, pollySettings, type PollySettings } from './polly-settings.js';
import { signWithSettings } from './polly-signing.js';
import { buildPollySpeechRequest, POLLY_MP3_SAMPLE_RATE, POLLY_PCM_SAMPLE_RATE, pollyProviderOptions } from './polly-speech-model.js';
import { listPollyVoices } from './polly-voices.js';

const definition: HttpProviderDefinition = {
  id: 'polly',
  // Replaced per deployment by AWS_ENDPOINT_URL_POLLY or the region's endpoint (see create()).
  defaultBaseUrl: pollyDefaultEndpoint('us-east-1'),
  descriptor: pollyDescriptor,
  buildRequest: buildPollySpeechRequest,
  classifyError: classifyPollyError,
  signRequest: signWithSettings,
};

function isConfigured(config: PollySettings | undefined): boolean {
  return Boolean(config?.accessKeyId && config.secretAccessKey && config.region);
}

export const pollyProvider: ProviderModule<PollySettings> = {
  id: 'polly',
  descriptor: pollyDescriptor,
  settings: pollySettings,
  providerOptions: pollyProviderOptions,
  mp3Quality: 'mp3 24 kHz (SampleRate "24000"; Polly picks the bit rate)',
  output: {
    mp3: { container: 'mp3', encoding: 'mp3', sampleRate: POLLY_MP3_SAMPLE_RATE, channels: 1, framing: 'bytes' },
    pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: POLLY_PCM_SAMPLE_RATE, channels: 1, framing: 'bytes' },
  },
  isConfigured,
  create(config, context) {
    if (!config || !isConfigured(config)) throw new TypeError('polly: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION are required');
    return createHttpSpeechAdapter(definition, {
      apiKey: config.accessKeyId!,
      baseUrl: config.endpoint ?? pollyDefaultEndpoint(config.region!),
      settings: config,
      firstByteTimeoutMs: context.attemptTimeoutMs,
      pools: context.pools,
    });
  },
  listVoices: listPollyVoices,
  testKit: () => import('./polly-test-kit.js').then((kit) => kit.pollyTestKit),
};

export { pollyDescriptor, POLLY_SNAPSHOT_VOICES } from './polly-catalog.js';
export { classifyPollyError, pollyErrorType } from './polly-error.js';
export { pollyDefaultEndpoint, pollySettings, type PollySettings } from './polly-settings.js';
export { signPollyRequest } from './polly-signing.js';
export { buildPollySpeechRequest, pollyProviderOptions, POLLY_PCM_OUTPUT } from './polly-speech-model.js';
export { listPollyVoices, normalizePollyVoice } from './polly-voices.js';
export type * from './polly-api-types.js';
