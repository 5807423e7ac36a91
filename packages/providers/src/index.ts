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
  SpeechAudio,
  KnowsItsEnd,
  SynthesisContext,
  VoiceDescriptor,
} from './types.js';
export { NEVER_SMOKE_TESTED } from './types.js';
export { LightAbortSignal, type AbortSignalLike } from './streaming/light-abort-signal.js';
export {
  categoryForStatus,
  CircuitOpenError,
  InvalidSpeechRequestError,
  isRetryableCategory,
  isRetryableStatus,
  ProviderError,
  ProviderUnavailableError,
  UPSTREAM_FAILURE_CATEGORIES,
  UpstreamInvalidRequestError,
  type CircuitRejection,
  type ProviderErrorKind,
  type ProviderErrorOptions,
  type RequestField,
  type UpstreamFailureCategory,
} from './errors.js';
export {
  createProviderRegistry,
  type BreakerAdmission,
  type BreakerPermit,
  type CircuitBreakerConfig,
  type ProviderRegistry,
  type ProviderRegistryConfig,
  type ProviderState,
  type ProviderStatus,
  type UpstreamObserver,
} from './registry.js';
export type { AttemptObserver, AttemptOutcome } from './retry/attempts.js';
export { providerModules } from './provider-list.js';
export { applyPricingOverrides, parsePricingOverrides, type PricingOverrides } from './pricing/pricing-overrides.js';
export {
  defineHttpProvider,
  type HttpProviderConfig,
  type HttpProviderModuleDefinition,
  type ProviderContext,
  type ProviderModule,
  type UpstreamOutputDescription,
} from './provider-module.js';
export {
  apiKeySettings,
  baseUrlSchema,
  envPrefix,
  providerSettingsFromEnvironment,
  settingsEnvironmentShape,
  settingsSchema,
  type SettingSpec,
  type SettingsOf,
  type SettingsSpec,
} from './settings/provider-settings.js';
export type { ClientRefusalCase, ConformanceFixture, ProviderTestKit } from './testing/test-kit.js';
export {
  createHttpSpeechAdapter,
  type HttpAdapterSettings,
  type HttpProviderCredentials,
  type HttpProviderDefinition,
  type HttpSpeechRequest,
} from './http/http-speech-adapter.js';
export { ConnectionPools, type ConnectionPoolOptions } from './http/connection-pools.js';
export type { UpstreamErrorClassification, UpstreamErrorClassifier } from './http/send-speech-request.js';
export {
  describeProviderOptions,
  NO_PROVIDER_OPTIONS,
  readProviderOptions,
  type ProviderOptionDescriptor,
  type ProviderOptionsSchema,
} from './shared/provider-options.js';
export { encodePathSegment } from './shared/speech-checks.js';
export * from './openai/index.js';
export * from './elevenlabs/index.js';
export * from './cartesia/index.js';
export * from './local/index.js';
export { CatalogState, type StoredCatalogEntry } from './catalog/catalog-state.js';
export type { CatalogLogger, CatalogStore, CatalogTask } from './catalog/catalog-store.js';
export {
  refreshVoiceCatalog, smokeTestProviders, startCatalogRefresher, startCatalogFollower,
  type CatalogFollower, type CatalogRefresher, type RefreshSettings, type VoiceRefreshOutcome,
} from './catalog/catalog-refresher.js';
export { runSmokeTest, SMOKE_TEST_TEXT, type SmokeTestOutcome } from './catalog/smoke-test.js';
export { VoiceListingError, type VoiceListingContext, type VoiceListingFailure } from './catalog/voice-listing.js';
