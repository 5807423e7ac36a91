// The extension point: a provider is ONE folder exporting a ProviderModule, plus one line in `provider-list.ts`.
// The module carries everything the rest of the system needs to know about the provider: its catalog (with
// default prices), its settings (environment names and zod schemas), the provider_options it accepts, and,
// loaded lazily so production never imports it, its test kit (the HTTP double and its conformance fixture).
// See ADDING-A-PROVIDER.md.

import type { z } from 'zod';
import type { ConnectionPools } from './http/connection-pools.js';
import { createHttpSpeechAdapter, type HttpProviderDefinition } from './http/http-speech-adapter.js';
import type { VoiceListingContext } from './catalog/voice-listing.js';
import { apiKeySettings, type SettingsSpec } from './settings/provider-settings.js';
import type { ProviderTestKit } from './testing/test-kit.js';
import type { ProviderDescriptor, SpeechAdapter, VoiceDescriptor } from './types.js';

/** Per-provider settings for HTTP providers: what `apiKeySettings` declares. */
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

/**
 * What the upstream returns by default for each router format, as catalog data (the conformance suite checks
 * the MP3 sample rate against it). The conversion itself is driven per request: a mapping whose upstream
 * answer is not already the router's format sets `output` (an `OutputDescription` from @voice-router/audio)
 * on the request it builds, and the adapter converts through the audio pipeline.
 */
export interface UpstreamOutputDescription {
  container: 'mp3' | 'raw' | 'wav' | 'ogg' | (string & {});
  encoding?: 'pcm_s16le' | 'mp3' | (string & {});
  sampleRate?: number;
  channels?: number;
  /** How audio bytes are framed on the wire: plain bytes, or base64 inside SSE/NDJSON/WebSocket messages. */
  framing?: 'bytes' | 'sse-base64' | 'ndjson-base64' | 'websocket' | (string & {});
}

export interface ProviderModule<TConfig = unknown> {
  id: string;
  /** Shown by list() even when the provider is not configured. Model prices here are the defaults (see pricing). */
  descriptor: ProviderDescriptor;
  /**
   * The settings the module reads, by field of `TConfig`: environment variable, zod schema, description.
   * Generic HTTP providers use `apiKeySettings(id, ...)` (`<ID>_API_KEY`, `<ID>_BASE_URL`); ecosystems'
   * own names win where they exist (e.g. AWS_REGION).
   */
  settings: SettingsSpec;
  /**
   * provider_options this provider accepts, as a zod object of optional fields. Unknown keys and bad values
   * are refused with 400 invalid_body naming the key; `/v1/providers` lists the keys.
   */
  providerOptions?: z.ZodObject;
  /** What `mp3` is asked for upstream (e.g. `mp3_44100_128`), listed in the catalog and README. */
  mp3Quality?: string;
  /** Whether `config` holds what the provider needs (an API key); keyless providers always return true. */
  isConfigured(config: TConfig | undefined): boolean;
  create(config: TConfig | undefined, context: ProviderContext): SpeechAdapter;
  /** What the upstream sends by default for each router format (catalog data; see UpstreamOutputDescription). */
  output?: Partial<Record<'mp3' | 'pcm', UpstreamOutputDescription>>;
  /**
   * The provider's live voice list, paged to the end and normalized; called only when isConfigured(config).
   * Absent for fixed-voice providers: their descriptor's list is the catalog.
   */
  listVoices?(config: TConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]>;
  /**
   * The provider's HTTP double and conformance fixture, imported on demand (tests, `startFakeProviders`),
   * so production never loads them. Absent for in-process providers (local).
   */
  testKit?(): Promise<ProviderTestKit>;
}

/** Everything a generic HTTP provider declares; `settings` defaults to `apiKeySettings(id)`. */
export interface HttpProviderModuleDefinition extends HttpProviderDefinition {
  settings?: SettingsSpec;
  /** Describes the default base URL's convention for the README, e.g. "includes /v1, as the OpenAI SDK". */
  baseUrlConvention?: string;
  providerOptions?: z.ZodObject;
  mp3Quality?: string;
  output?: ProviderModule['output'];
  testKit?(): Promise<ProviderTestKit>;
}

export function defineHttpProvider(definition: HttpProviderModuleDefinition): ProviderModule<HttpProviderConfig> {
  return {
    id: definition.id,
    descriptor: definition.descriptor,
    settings: definition.settings ?? apiKeySettings(definition.id, definition.baseUrlConvention ?? `default ${definition.defaultBaseUrl}`),
    providerOptions: definition.providerOptions,
    mp3Quality: definition.mp3Quality,
    output: definition.output,
    testKit: definition.testKit,
    isConfigured: (config) => typeof config?.apiKey === 'string' && config.apiKey.length > 0,
    create: (config, context) =>
      createHttpSpeechAdapter(definition, {
        apiKey: config?.apiKey ?? '',
        baseUrl: config?.baseUrl,
        settings: config as Readonly<Record<string, unknown>> | undefined,
        firstByteTimeoutMs: context.attemptTimeoutMs,
        pools: context.pools,
      }),
  };
}
