// The router's single entry point to speech providers: lists catalogs, reports availability (API keys and
// circuit breakers), and runs synthesis under a per-provider breaker with retries before the first audio
// byte, each attempt under a deadline.

import { ProviderBreaker, type BreakerAdmission, type BreakerPermit } from './breaker/provider-breaker.js';
import { ProviderUnavailableError } from './errors.js';
import { ConnectionPools, type ConnectionPoolOptions } from './http/connection-pools.js';
import type { ProviderModule } from './provider-module.js';
import { providerModules } from './provider-list.js';
import { applyPricingOverrides, type PricingOverrides } from './pricing/pricing-overrides.js';
import { synthesizeWithRetries, type AttemptObserver, type AttemptSettings } from './retry/attempts.js';
import { describeProviderOptions, NO_PROVIDER_OPTIONS, readProviderOptions } from './shared/provider-options.js';
import type { VoiceListingContext } from './catalog/voice-listing.js';
import type { ProviderDescriptor, SpeechAdapter, SpeechInput, SpeechResult, SynthesisContext, VoiceDescriptor } from './types.js';

export interface CircuitBreakerConfig {
  /** Consecutive upstream failures (each request counts once, after its retries) that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long an open circuit refuses requests before one probe may go upstream. Default 30000. */
  cooldownMs?: number;
}

export interface ProviderRegistryConfig {
  /** Deadline per attempt, from the start of the attempt until its first audio byte. */
  attemptTimeoutMs: number;
  /** Attempts per synthesize() call, the first included. */
  maxAttempts: number;
  /** Base of the exponential backoff between attempts. Default 50. */
  backoffBaseMs?: number;
  breaker?: CircuitBreakerConfig;
  /**
   * Settings per provider id, each as its module declares them (`settings`), e.g.
   * `{ openai: { apiKey, baseUrl }, local: { workers } }`. A provider without an entry is listed but unconfigured.
   */
  providers?: Readonly<Record<string, unknown>>;
  /** Per-deployment prices replacing the catalogs' defaults, keyed `<provider>/<model_id>` (see parsePricingOverrides). */
  pricing?: PricingOverrides;
  /** Upstream connection pool tuning shared by all HTTP providers. */
  connections?: ConnectionPoolOptions;
  /** Told about every upstream attempt and every breaker that opens (metrics). */
  observer?: UpstreamObserver;
  /**
   * The provider modules to serve; default the built-in list. A deployment's list adds the OpenAI-compatible
   * hosts its environment declares (OPENAI_COMPATIBLE_*, see openAICompatibleHostModules).
   */
  modules?: readonly ProviderModule<never>[];
}

export interface UpstreamObserver {
  attempt?: AttemptObserver;
  breakerOpened?(provider: string): void;
}

export type ProviderState = 'available' | 'degraded' | 'unavailable';

export type ProviderStatus =
  | { id: string; state: 'available' }
  | { id: string; state: 'degraded'; reason: 'circuit_half_open' }
  | { id: string; state: 'unavailable'; reason: 'missing_api_key' | 'circuit_open' };

export type { BreakerAdmission, BreakerPermit } from './breaker/provider-breaker.js';

export interface ProviderRegistry {
  /** Catalogs with deployment prices applied, each provider's accepted provider_options and mp3 quality. */
  list(): ProviderDescriptor[];
  descriptor(id: string): ProviderDescriptor | undefined;
  /**
   * Validates a request's provider_options against the provider's declared schema and returns the values to
   * send; throws InvalidSpeechRequestError naming the first unknown or invalid key. Pure, so callers check
   * before anything is reserved.
   */
  readProviderOptions(providerId: string, options: Record<string, unknown>): Record<string, unknown>;
  /** Per process: every replica keeps its own breakers. */
  status(): ProviderStatus[];
  isAvailable(id: string): boolean;
  /**
   * Asks the provider's breaker whether a request may go upstream, before anything is reserved. A half-open
   * breaker admits one probe; release() the permit if the request stops before synthesize().
   */
  admit(id: string): BreakerAdmission;
  /**
   * Retries retryable failures up to maxAttempts, each attempt bounded by attemptTimeoutMs until its first
   * byte; never retries once audio flowed. Rejects with the caller's abort reason when `signal` aborts, and
   * with CircuitOpenError when the breaker refuses (checked again even with a permit).
   */
  synthesize(providerId: string, input: SpeechInput, context: SynthesisContext & { permit?: BreakerPermit }): Promise<SpeechResult>;
  /** Configured providers whose module lists voices live (the rest keep their descriptor's fixed list). */
  liveVoiceProviders(): string[];
  /** Calls one provider's voice API through its module (all pages); throws VoiceListingError on failure. */
  listVoices(providerId: string, context: VoiceListingContext): Promise<VoiceDescriptor[]>;
  close(): Promise<void>;
}

interface RegistryEntry {
  module: ProviderModule<never>;
  settings: never;
  adapter?: SpeechAdapter;
  breaker: ProviderBreaker;
  /** What list() shows: the catalog (the adapter's once created) plus options, mp3 quality and prices. */
  descriptor: ProviderDescriptor;
}

const DEFAULT_FAILURE_THRESHOLD = 5;
const DEFAULT_COOLDOWN_MS = 30_000;

function validateConfig(config: ProviderRegistryConfig): void {
  if (!Number.isFinite(config.attemptTimeoutMs) || config.attemptTimeoutMs <= 0) {
    throw new RangeError('attemptTimeoutMs must be a positive number');
  }
  if (!Number.isInteger(config.maxAttempts) || config.maxAttempts < 1) throw new RangeError('maxAttempts must be an integer >= 1');
  if (config.backoffBaseMs !== undefined && (!Number.isFinite(config.backoffBaseMs) || config.backoffBaseMs < 0)) {
    throw new RangeError('backoffBaseMs must be a non-negative number');
  }
  const threshold = config.breaker?.failureThreshold;
  if (threshold !== undefined && (!Number.isInteger(threshold) || threshold < 1)) {
    throw new RangeError('breaker.failureThreshold must be an integer >= 1');
  }
  const cooldown = config.breaker?.cooldownMs;
  if (cooldown !== undefined && (!Number.isFinite(cooldown) || cooldown <= 0)) throw new RangeError('breaker.cooldownMs must be positive');
}

/** Settings for a module live under its id in `providers` (`openai`, `elevenlabs`, ...). */
function settingsFor(config: ProviderRegistryConfig, id: string): never {
  return config.providers?.[id] as never;
}

function statusOf({ module, adapter, breaker }: RegistryEntry): ProviderStatus {
  if (!adapter) return { id: module.id, state: 'unavailable', reason: 'missing_api_key' };
  const view = breaker.view();
  if (view.state === 'open') return { id: module.id, state: 'unavailable', reason: 'circuit_open' };
  if (view.state === 'half_open') return { id: module.id, state: 'degraded', reason: 'circuit_half_open' };
  return { id: module.id, state: 'available' };
}

export function createProviderRegistry(
  config: ProviderRegistryConfig,
  modules: readonly ProviderModule<never>[] = config.modules ?? providerModules,
): ProviderRegistry {
  validateConfig(config);
  const attempts: AttemptSettings = {
    maxAttempts: config.maxAttempts,
    attemptTimeoutMs: config.attemptTimeoutMs,
    backoffBaseMs: config.backoffBaseMs ?? 50,
  };
  const breakerSettings = {
    failureThreshold: config.breaker?.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD,
    cooldownMs: config.breaker?.cooldownMs ?? DEFAULT_COOLDOWN_MS,
    // Admission happens before the reservation; a probe that never reaches synthesize() frees its slot by then.
    probeClaimTtlMs: config.attemptTimeoutMs,
  };
  // Before any adapter exists (workers, pools): a price for a model no provider lists stops the start here.
  applyPricingOverrides(modules.map((module) => module.descriptor), config.pricing);
  const pools = new ConnectionPools(config.connections);
  const entries = new Map<string, RegistryEntry>();
  for (const module of modules) {
    if (entries.has(module.id)) throw new Error(`provider ${module.id} is registered twice`);
    const settings = settingsFor(config, module.id);
    const adapter = module.isConfigured(settings)
      ? module.create(settings, { attemptTimeoutMs: config.attemptTimeoutMs, pools })
      : undefined;
    const onBreak = config.observer?.breakerOpened && (() => config.observer!.breakerOpened!(module.id));
    const catalog = adapter?.descriptor ?? module.descriptor;
    const descriptor: ProviderDescriptor = {
      ...catalog,
      providerOptions: describeProviderOptions(module.providerOptions ?? NO_PROVIDER_OPTIONS),
      ...(module.mp3Quality !== undefined ? { mp3Quality: module.mp3Quality } : {}),
    };
    entries.set(module.id, { module, settings, adapter, breaker: new ProviderBreaker(module.id, { ...breakerSettings, onBreak }), descriptor });
  }
  const priced = applyPricingOverrides([...entries.values()].map((entry) => entry.descriptor), config.pricing);
  for (const descriptor of priced) entries.get(descriptor.id)!.descriptor = descriptor;

  const descriptorOf = (entry: RegistryEntry) => entry.descriptor;
  const optionsOf = (id: string, options: Record<string, unknown>) => {
    const module = entries.get(id)?.module;
    if (!module) throw new ProviderUnavailableError(id, 'unknown_provider');
    return readProviderOptions(id, options, module.providerOptions ?? NO_PROVIDER_OPTIONS).values;
  };
  const configuredEntry = (id: string) => {
    const entry = entries.get(id);
    if (!entry) throw new ProviderUnavailableError(id, 'unknown_provider');
    if (!entry.adapter) throw new ProviderUnavailableError(id, 'missing_api_key');
    return entry as RegistryEntry & { adapter: SpeechAdapter };
  };

  return {
    list: () => [...entries.values()].map(descriptorOf),
    descriptor: (id) => {
      const entry = entries.get(id);
      return entry ? descriptorOf(entry) : undefined;
    },
    readProviderOptions: optionsOf,
    status: () => [...entries.values()].map(statusOf),
    isAvailable: (id) => entries.get(id)?.adapter !== undefined,
    admit: (id) => configuredEntry(id).breaker.admit(),

    async synthesize(providerId, input, { signal, permit, traceparent }) {
      const { adapter, breaker } = configuredEntry(providerId);
      // Inside the breaker's run so a held probe permit is settled; like any client refusal
      // (InvalidSpeechRequestError) it does not count against the provider's health.
      return breaker.run(permit, signal, () =>
        synthesizeWithRetries(
          adapter, { ...input, providerOptions: optionsOf(providerId, input.providerOptions) }, { signal, traceparent }, attempts, config.observer?.attempt,
        ),
      );
    },

    liveVoiceProviders: () =>
      [...entries.values()].filter((entry) => entry.adapter && entry.module.listVoices).map((entry) => entry.module.id),

    async listVoices(providerId, context) {
      const entry = configuredEntry(providerId);
      if (!entry.module.listVoices) return descriptorOf(entry).voices;
      return entry.module.listVoices(entry.settings, context);
    },

    async close() {
      const adapters = [...entries.values()].flatMap((entry) => (entry.adapter ? [entry.adapter] : []));
      await Promise.all(adapters.map((adapter) => adapter.close()));
      await pools.close();
    },
  };
}
