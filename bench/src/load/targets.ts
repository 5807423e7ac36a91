// The systems every scenario compares, and the request each expects for the same speech: the router
// takes OpenAI's format with a pk_ key; the references take the upstream's own request unchanged.

export type SystemName =
  | 'direct' | 'bare-proxy' | 'gateway' | 'router-embedded' | 'router-scaled'
  /** The same router with per-key rate and concurrency limits switched off (KEY_LIMITS=off), for scenarios 1-2. */
  | 'router-embedded-nolimits' | 'router-scaled-nolimits'
  /** The same router with metrics and logging off (METRICS_ENABLED=false, quietest LOG_LEVEL), for scenarios 1-2. */
  | 'router-embedded-nometrics' | 'router-scaled-nometrics'
  /** The same router, limits on, its data plane on Node 24 (no native uWS build there: the node:http adapter). */
  | 'router-embedded-node24' | 'router-scaled-node24'
  /** `--baseline-data-plane=<main.js>`: another build's data plane (e.g. the base commit's) beside this one. */
  | 'router-scaled-baseline'
  /**
   * The same router started the way its feature-off twins are (an extra data plane on the same database,
   * or a second small embedded process), nothing switched off: the "on" side of sections 2b and 2c, so
   * that each pair differs only in the feature.
   */
  | 'router-embedded-ref' | 'router-scaled-ref';
export const REFERENCE_SYSTEMS: SystemName[] = ['direct', 'bare-proxy', 'gateway'];

/** Audio sizes the fake produces for these inputs (it sizes bodies like speech: ~15 characters a second, 64 kbps MP3). */
export const AUDIO_SIZES = {
  /** ~4 KB: one chunk, the short-request throughput scenario. */
  short: 8,
  /** ~32 KB: four paced chunks, the streaming latency scenario. */
  stream: 61,
  /** ~1 MB: the slow-client memory scenario. */
  large: 1966,
} as const;
export type AudioSize = keyof typeof AUDIO_SIZES;

const SENTENCE = 'Voice Router streams speech from many providers through one interface. ';

export function inputText(characters: number): string {
  return SENTENCE.repeat(Math.ceil(characters / SENTENCE.length)).slice(0, characters);
}

export interface RequestSpec {
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Target {
  system: SystemName;
  baseUrl: string;
  /** The process that serves this system's HTTP (router data plane or proxy); none for direct. */
  pids(): number[];
  /** The router's Prometheus metrics listener (none for the references). */
  metricsUrl?: string;
  /** Every process whose CPU a request costs, by role, for the CPU split. */
  cpuGroups(): Record<string, () => number[]>;
  /** The request client number `client` sends (the router spreads clients over several funded accounts). */
  speech(size: AudioSize, client?: number): RequestSpec;
  /** Routers only: the serving process's highest RSS (bytes) while it last started (ManagedProcess.startupPeakRss). */
  startupPeakRss?(): number | undefined;
}

export function upstreamSpeech(apiKey: string, size: AudioSize): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/octet-stream' },
    body: JSON.stringify({ model: 'tts-1', input: inputText(AUDIO_SIZES[size]), voice: 'alloy', response_format: 'mp3' }),
  };
}

export function routerSpeech(key: string, size: AudioSize): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/tts-1', input: inputText(AUDIO_SIZES[size]), voice: 'alloy' }),
  };
}

/** The router's price for one request of this size: tts-1 costs 15 micro-dollars per character. */
export const TTS1_MICROS_PER_CHARACTER = 15;
export const costMicros = (size: AudioSize) => AUDIO_SIZES[size] * TTS1_MICROS_PER_CHARACTER;
