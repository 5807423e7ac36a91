// The extension point: a provider is a module in `provider-list.ts`. HTTP providers are a folder with a pure
// mapping, an error parser and a catalog, wrapped by `defineHttpProvider`.

import type { ConnectionPools } from './http/connection-pools.js';
import { createHttpSpeechAdapter, type HttpProviderDefinition } from './http/http-speech-adapter.js';
import type { VoiceListingContext } from './catalog/voice-listing.js';
import type { ProviderDescriptor, SpeechAdapter, VoiceDescriptor } from './types.js';

/** Per-provider settings for HTTP providers in the registry config. */
export interface HttpProviderConfig {
  /** Without a key the provider is listed but unavailable. */
  apiKey?: string;
  baseUrl?: string;
}

export interface ProviderContext {
  /** Deadline per attempt until the first audio byte. */
  attemptTimeoutMs: number;
  pools: ConnectionPools;
}

export interface ProviderModule<TConfig = unknown> {
  id: string;
  /** Shown by list() even when the provider is not configured. */
  descriptor: ProviderDescriptor;
  /** Whether `config` holds what the provider needs (an API key); keyless providers always return true. */
  isConfigured(config: TConfig | undefined): boolean;
  create(config: TConfig | undefined, context: ProviderContext): SpeechAdapter;
  /**
   * The provider's live voice list, paged to the end and normalized; called only when isConfigured(config).
   * Absent for fixed-voice providers: their descriptor's list is the catalog.
   */
  listVoices?(config: TConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]>;
}

export function defineHttpProvider(definition: HttpProviderDefinition): ProviderModule<HttpProviderConfig> {
  return {
    id: definition.id,
    descriptor: definition.descriptor,
    isConfigured: (config) => typeof config?.apiKey === 'string' && config.apiKey.length > 0,
    create: (config, context) =>
      createHttpSpeechAdapter(definition, {
        apiKey: config?.apiKey ?? '',
        baseUrl: config?.baseUrl,
        firstByteTimeoutMs: context.attemptTimeoutMs,
        pools: context.pools,
      }),
  };
}
