// The offline provider: eSpeak NG in worker threads, always available, free.

import type { ProviderModule } from '../provider-module.js';
import { buildLocalDescriptor } from './local-catalog.js';
import { createLocalSpeechAdapter } from './local-speech-adapter.js';

export interface LocalProviderConfig {
  /** Worker threads for synthesis. Default 1. */
  workers?: number;
  /** Requests that may wait for a worker; more are refused (ProviderError kind `overloaded`). Default: unbounded. */
  maxQueued?: number;
}

export const localProvider: ProviderModule<LocalProviderConfig> = {
  id: 'local',
  // Voices are filled in from the synthesizer once the adapter exists; the local provider always has one.
  descriptor: buildLocalDescriptor([]),
  isConfigured: () => true,
  create: (config, context) =>
    createLocalSpeechAdapter({ workers: config?.workers, maxQueued: config?.maxQueued, firstByteTimeoutMs: context.attemptTimeoutMs }),
};

export { buildLocalDescriptor, LOCAL_MODEL_ID } from './local-catalog.js';
export { buildLocalSynthesisRequest } from './local-speech-model.js';
export { createLocalSpeechAdapter, type LocalAdapterSettings } from './local-speech-adapter.js';
