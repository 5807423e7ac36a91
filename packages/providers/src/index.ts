// Public surface of @voice-router/providers: the adapter contract, the registry, errors, and each
// provider's pure mapping (for reuse by OpenAI-compatible providers and for tests).

export type {
  AudioFormat,
  ModelDescriptor,
  ModelPricing,
  ProviderCapabilities,
  ProviderDescriptor,
  SpeechAdapter,
  SpeechInput,
  SpeechResult,
  VoiceDescriptor,
} from './types.js';
export {
  InvalidSpeechRequestError,
  isRetryableStatus,
  ProviderError,
  ProviderUnavailableError,
  type ProviderErrorKind,
  type ProviderErrorOptions,
} from './errors.js';
export {
  createProviderRegistry,
  type ProviderRegistry,
  type ProviderRegistryConfig,
  type ProviderState,
  type ProviderStatus,
} from './registry.js';
export { providerModules } from './provider-list.js';
export { defineHttpProvider, type HttpProviderConfig, type ProviderContext, type ProviderModule } from './provider-module.js';
export {
  createHttpSpeechAdapter,
  type HttpAdapterSettings,
  type HttpProviderCredentials,
  type HttpProviderDefinition,
  type HttpSpeechRequest,
} from './http/http-speech-adapter.js';
export { ConnectionPools, type ConnectionPoolOptions } from './http/connection-pools.js';
export type { ErrorBodyParser, ParsedUpstreamError } from './http/send-speech-request.js';
export { readProviderOptions, type ProviderOptionRule } from './shared/provider-options.js';
export { encodePathSegment } from './shared/speech-checks.js';
export * from './openai/index.js';
export * from './elevenlabs/index.js';
export * from './cartesia/index.js';
export * from './local/index.js';
