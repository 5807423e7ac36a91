// SpeechAdapter over the in-process eSpeak NG synthesizer, with the same first-byte deadline and
// cancellation behaviour as the HTTP adapters.

import { createLocalSynthesizer, type LocalSynthesizer } from '@voice-router/speech-espeak';
import { checkKnownModel } from '../shared/speech-checks.js';
import { openAudioStream } from '../streaming/open-audio-stream.js';
import type { SpeechAdapter } from '../types.js';
import { buildLocalDescriptor } from './local-catalog.js';
import { mapLocalError } from './local-error.js';
import { buildLocalSynthesisRequest } from './local-speech-model.js';

export interface LocalAdapterSettings {
  /** Worker threads for synthesis. Default 1. */
  workers?: number;
  /** Requests that may wait for a worker before new ones are refused. Default: unbounded. */
  maxQueued?: number;
  /** A worker idle this long stops (the next request starts one). Default: never. */
  idleTimeoutMs?: number;
  firstByteTimeoutMs: number;
  /** Injected synthesizer (tests); by default one is created and owned by the adapter. */
  synthesizer?: LocalSynthesizer;
}

export function createLocalSpeechAdapter(settings: LocalAdapterSettings): SpeechAdapter {
  const ownsSynthesizer = settings.synthesizer === undefined;
  const synthesizer = settings.synthesizer ?? createLocalSynthesizer({
    workers: settings.workers ?? 1, maxQueued: settings.maxQueued, idleTimeoutMs: settings.idleTimeoutMs,
  });
  const voices = synthesizer.voices();
  const voiceIds = new Set(voices.map((voice) => voice.id));
  const descriptor = buildLocalDescriptor(voices);

  return {
    descriptor,
    async synthesize(input, { signal }) {
      checkKnownModel(descriptor, input);
      const { request, warnings } = buildLocalSynthesisRequest(input, voiceIds);
      const audio = await openAudioStream({
        provider: 'local',
        signal,
        firstByteTimeoutMs: settings.firstByteTimeoutMs,
        // synthesize() validates synchronously; wrapping in an async function turns that into a rejection.
        open: async (attemptSignal) => synthesizer.synthesize(request, attemptSignal)[Symbol.asyncIterator](),
        mapError: mapLocalError,
      });
      return { warnings, audio };
    },
    async close() {
      if (ownsSynthesizer) await synthesizer.close();
    },
  };
}
