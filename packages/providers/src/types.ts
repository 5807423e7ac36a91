// The adapter contract (version 1): every speech provider, HTTP or in-process, implements SpeechAdapter.
// The router only ever sees these types; provider wire formats stay inside each provider's folder.

import type { ProviderOptionDescriptor } from './shared/provider-options.js';
import type { AbortSignalLike } from './streaming/light-abort-signal.js';

export type AudioFormat = 'mp3' | 'pcm';

/** A speech request after the router has parsed `<provider>/<model_id>` and validated the body. */
export interface SpeechInput {
  /** Everything after the first slash of `model`, passed to the provider unchanged. */
  modelId: string;
  /** Provider-local voice id. Adapters must encode it wherever it enters a URL. */
  voice: string;
  text: string;
  /** mp3, or pcm = 16-bit little-endian, 24 kHz, mono, no header. */
  format: AudioFormat;
  /** OpenAI-style speed multiplier (0.25 to 4); adapters map it or warn. */
  speed?: number;
  /** OpenAI-style style instructions; adapters map them or warn. */
  instructions?: string;
  /** Passed through; accepted keys depend on the provider. Unknown keys produce warnings. */
  providerOptions: Record<string, unknown>;
}

export interface ModelPricing {
  unit: 'character';
  /** Integer or fractional micro-dollars per Unicode code point of input; cost = ceil(chars × this). */
  microsPerUnit: number;
}

export interface ModelDescriptor {
  id: string;
  name: string;
  responseFormats: AudioFormat[];
  pricing: ModelPricing;
  /** Longest input the provider accepts for this model, in code points. */
  maxInputCharacters: number;
}

export interface VoiceDescriptor {
  id: string;
  name: string;
  /** BCP 47 tag, e.g. en-US. */
  language: string;
  /** Free-form labels; `gender` is filtered on exactly (case-insensitive). */
  labels: Record<string, string>;
  previewUrl?: string;
  /** Model ids (without provider prefix) this voice works with. */
  modelCompatibility: string[];
}

/** `lastSmokeTest` of a provider no smoke synthesis has succeeded against yet. */
export const NEVER_SMOKE_TESTED = 'never';

export interface ProviderCapabilities {
  supportedFormats: AudioFormat[];
  /** Features the provider has that this adapter does not wire up yet. */
  unwiredCapabilities: string[];
  /** Behaviour a user should know about (limits, mappings). */
  quirks: string[];
  /** ISO 8601 time of the last successful smoke synthesis against the real provider, or "never". */
  lastSmokeTest: string;
}

export interface ProviderDescriptor {
  id: string;
  name: string;
  website: string;
  /** False for providers that need no credentials (local). */
  requiresApiKey: boolean;
  models: ModelDescriptor[];
  voices: VoiceDescriptor[];
  capabilities: ProviderCapabilities;
  /** provider_options keys the provider accepts (filled in by the registry from the module's schema). */
  providerOptions?: ProviderOptionDescriptor[];
  /** What `mp3` asks the provider for, e.g. `mp3_44100_128` (filled in by the registry from the module). */
  mp3Quality?: string;
}

/**
 * Upstream audio that can tell, without waiting, that no chunk will follow: the upstream body has ended
 * and every byte of it has been handed out. A server can then send the last chunk and the end of the
 * response in one write. Sources that cannot tell (converted audio, the local synthesizer) answer false
 * or leave it out, and simply end when iteration ends.
 */
export interface KnowsItsEnd {
  exhausted(): boolean;
}

export type SpeechAudio = AsyncIterable<Uint8Array> & Partial<KnowsItsEnd>;

/** An upstream body as the adapters pull it, chunk by chunk; it may know its end. */
export type UpstreamAudioSource = AsyncIterator<Uint8Array> & Partial<KnowsItsEnd>;

export interface SpeechResult {
  /** Options that were ignored or approximated, e.g. `speed ignored: not supported by elevenlabs`. */
  warnings: string[];
  /**
   * The audio, in the requested format. The first chunk is already received when synthesize()
   * resolves, so retries and deadlines cover everything up to the first byte. Iterating pulls
   * more from upstream (backpressure); breaking out of the loop cancels the upstream request.
   */
  audio: SpeechAudio;
}

/** What a synthesis call carries besides its input. */
export interface SynthesisContext {
  signal: AbortSignalLike;
  /**
   * W3C `traceparent` for the upstream call (the caller's trace id, the router's span id), already
   * validated; HTTP adapters send it as a header, others ignore it. Absent when the caller sent none.
   */
  traceparent?: string;
}

export interface SpeechAdapter {
  readonly descriptor: ProviderDescriptor;
  synthesize(input: SpeechInput, context: SynthesisContext): Promise<SpeechResult>;
  close(): Promise<void>;
}
