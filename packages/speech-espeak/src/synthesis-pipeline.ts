// Turns one job into encoded audio: sentence by sentence through eSpeak NG, resampled to 24 kHz (the
// audio package's windowed-sinc resampler), then raw PCM or MP3, emitting every block of bytes as soon as it exists.
import { Resampler } from '@voice-router/audio';
import { createAudioEncoder } from './audio-encoders.js';
import { ESPEAK_SAMPLE_RATE, type SpeechEngine } from './espeak-engine.js';
import type { SynthesisJob } from './protocol.js';
import { splitSentences } from './split-sentences.js';

export const OUTPUT_SAMPLE_RATE = 24_000;

export function runSynthesisJob(
  engine: SpeechEngine,
  job: SynthesisJob,
  isCancelled: () => boolean,
  emit: (bytes: Uint8Array) => void,
): void {
  engine.configure(job.espeakVoice, job.rate);
  // One resampler and one encoder for the whole request: the sentences form one continuous stream.
  const resampler = new Resampler(ESPEAK_SAMPLE_RATE, OUTPUT_SAMPLE_RATE);
  const encoder = createAudioEncoder(job.format, OUTPUT_SAMPLE_RATE);
  const emitIfAny = (bytes: Uint8Array) => {
    if (bytes.byteLength > 0) emit(bytes);
  };

  for (const sentence of splitSentences(job.text)) {
    if (isCancelled()) return;
    engine.synthesize(sentence, (samples) => {
      if (isCancelled()) return false;
      emitIfAny(encoder.encode(resampler.process(new Float32Array(samples))));
      return true;
    });
  }
  if (isCancelled()) return;
  // The resampler's last half filter length (about 1.3 ms) against trailing silence.
  emitIfAny(encoder.encode(resampler.end()));
  emitIfAny(encoder.flush());
}
