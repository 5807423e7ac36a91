// The router's single entry point to speech providers: lists catalogs, reports availability, and runs
// synthesis with retries (only before the first audio byte) under a per-attempt deadline.

import { ProviderError, ProviderUnavailableError } from './errors.js';
import { ConnectionPools, type ConnectionPoolOptions } from './http/connection-pools.js';
import type { LocalProviderConfig } from './local/index.js';
import type { HttpProviderConfig, ProviderModule } from './provider-module.js';
import { providerModules } from './provider-list.js';
import { backoffDelayMs, sleep } from './retry/backoff.js';
import type { ProviderDescriptor, SpeechAdapter, SpeechInput, SpeechResult } from './types.js';

export interface ProviderRegistryConfig {
  /** Deadline per attempt, from the start of the attempt until its first audio byte. */
  attemptTimeoutMs: number;
  /** Attempts per synthesize() call, the first included. */
  maxAttempts: number;
  /** Base of the exponential backoff between attempts. Default 50. */
  backoffBaseMs?: number;
  openai?: HttpProviderConfig;
  elevenlabs?: HttpProviderConfig;
  cartesia?: HttpProviderConfig;
  local?: LocalProviderConfig;
  /** Upstream connection pool tuning shared by all HTTP providers. */
  connections?: ConnectionPoolOptions;
}

export type ProviderState = 'available' | 'unavailable';

export interface ProviderStatus {
  id: string;
  state: ProviderState;
  reason?: 'missing_api_key';
}

export interface ProviderRegistry {
  list(): ProviderDescriptor[];
  descriptor(id: string): ProviderDescriptor | undefined;
  status(): ProviderStatus[];
  isAvailable(id: string): boolean;
  /**
   * Retries retryable failures up to maxAttempts, each attempt bounded by attemptTimeoutMs until its first
   * byte; never retries once audio flowed. Rejects with the caller's abort reason when `signal` aborts.
   */
  synthesize(providerId: string, input: SpeechInput, context: { signal: AbortSignal }): Promise<SpeechResult>;
  close(): Promise<void>;
}

interface RegistryEntry {
  module: ProviderModule<never>;
  adapter?: SpeechAdapter;
}

function validateConfig(config: ProviderRegistryConfig): void {
  if (!Number.isFinite(config.attemptTimeoutMs) || config.attemptTimeoutMs <= 0) {
    throw new RangeError('attemptTimeoutMs must be a positive number');
  }
  if (!Number.isInteger(config.maxAttempts) || config.maxAttempts < 1) throw new RangeError('maxAttempts must be an integer >= 1');
  if (config.backoffBaseMs !== undefined && (!Number.isFinite(config.backoffBaseMs) || config.backoffBaseMs < 0)) {
    throw new RangeError('backoffBaseMs must be a non-negative number');
  }
}

/** Settings for a module live under its id in the config (`openai`, `elevenlabs`, ...). */
function settingsFor(config: ProviderRegistryConfig, id: string): never {
  return (config as unknown as Record<string, unknown>)[id] as never;
}

export function createProviderRegistry(
  config: ProviderRegistryConfig,
  modules: readonly ProviderModule<never>[] = providerModules,
): ProviderRegistry {
  validateConfig(config);
  const backoffBaseMs = config.backoffBaseMs ?? 50;
  const pools = new ConnectionPools(config.connections);
  const entries = new Map<string, RegistryEntry>();
  for (const module of modules) {
    if (entries.has(module.id)) throw new Error(`provider ${module.id} is registered twice`);
    const settings = settingsFor(config, module.id);
    const adapter = module.isConfigured(settings)
      ? module.create(settings, { attemptTimeoutMs: config.attemptTimeoutMs, pools })
      : undefined;
    entries.set(module.id, { module, adapter });
  }

  const descriptorOf = (entry: RegistryEntry) => entry.adapter?.descriptor ?? entry.module.descriptor;

  return {
    list: () => [...entries.values()].map(descriptorOf),
    descriptor: (id) => {
      const entry = entries.get(id);
      return entry ? descriptorOf(entry) : undefined;
    },
    status: () =>
      [...entries.values()].map(({ module, adapter }) =>
        adapter ? { id: module.id, state: 'available' as const } : { id: module.id, state: 'unavailable' as const, reason: 'missing_api_key' as const },
      ),
    isAvailable: (id) => entries.get(id)?.adapter !== undefined,

    async synthesize(providerId, input, { signal }) {
      const entry = entries.get(providerId);
      if (!entry) throw new ProviderUnavailableError(providerId, 'unknown_provider');
      const adapter = entry.adapter;
      if (!adapter) throw new ProviderUnavailableError(providerId, 'missing_api_key');
      for (let attempt = 1; ; attempt += 1) {
        signal.throwIfAborted();
        try {
          // Once this resolves the first byte is in hand: later failures surface while iterating, never here.
          return await adapter.synthesize(input, { signal });
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (!(error instanceof ProviderError)) throw error;
          error.attempts = attempt;
          if (!error.isRetryable || attempt >= config.maxAttempts) throw error;
        }
        await sleep(backoffDelayMs(attempt, backoffBaseMs), signal);
      }
    },

    async close() {
      const adapters = [...entries.values()].flatMap((entry) => (entry.adapter ? [entry.adapter] : []));
      await Promise.all(adapters.map((adapter) => adapter.close()));
      await pools.close();
    },
  };
}
