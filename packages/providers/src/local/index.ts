// The offline provider: eSpeak NG in worker threads (started by the first request, stopped when idle), always available, free.

import { z } from 'zod';
import type { ProviderModule } from '../provider-module.js';
import type { SettingsSpec } from '../settings/provider-settings.js';
import { buildLocalDescriptor } from './local-catalog.js';
import { createLocalSpeechAdapter } from './local-speech-adapter.js';

export interface LocalProviderConfig {
  /** Worker threads for synthesis. Default 1. */
  workers?: number;
  /** Requests that may wait for a worker; more are refused (ProviderError kind `overloaded`). Default: unbounded. */
  maxQueued?: number;
  /** A worker with no request for this long stops; the next request starts one. Default: never. */
  idleTimeoutMs?: number;
}

const localSettings = {
  workers: { env: 'LOCAL_TTS_WORKERS', schema: z.coerce.number().int().min(1).max(16).default(1), description: 'Worker threads for local synthesis' },
  maxQueued: {
    env: 'LOCAL_TTS_MAX_QUEUE',
    schema: z.coerce.number().int().min(0).max(10_000).default(32),
    description: 'Local synthesis requests that may wait for a worker; more are refused with 503 and Retry-After',
  },
  idleTimeoutMs: {
    env: 'LOCAL_TTS_IDLE_MS',
    schema: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
    description: 'A local synthesis worker (about 130 MB) stops after this long without a request; workers start on the first request',
  },
} satisfies SettingsSpec;

export const localProvider: ProviderModule<LocalProviderConfig> = {
  id: 'local',
  settings: localSettings,
  mp3Quality: 'mp3 24 kHz 48 kbps CBR (encoded locally)',
  output: {
    mp3: { container: 'mp3', encoding: 'mp3', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    pcm: { container: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
  },
  // Voices are filled in from the synthesizer once the adapter exists; the local provider always has one.
  descriptor: buildLocalDescriptor([]),
  isConfigured: () => true,
  create: (config, context) =>
    createLocalSpeechAdapter({
      workers: config?.workers, maxQueued: config?.maxQueued, idleTimeoutMs: config?.idleTimeoutMs, firstByteTimeoutMs: context.attemptTimeoutMs,
    }),
};

export { buildLocalDescriptor, LOCAL_MODEL_ID } from './local-catalog.js';
export { buildLocalSynthesisRequest } from './local-speech-model.js';
export { createLocalSpeechAdapter, type LocalAdapterSettings } from './local-speech-adapter.js';
