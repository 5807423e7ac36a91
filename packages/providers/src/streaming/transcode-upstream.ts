// The one place where upstream audio that is not already the requested format is converted: the body is
// mapped through the audio package's streaming pipeline (framing, WAV header, resampling, MP3 encoding), so
// mp3 and pcm (s16le, 24 kHz, mono) come out right whatever the provider sends, chunk by chunk.

import { AudioFormatError, createOutputPipeline, isAlreadyTarget, type OutputDescription } from '@voice-router/audio';
import { ProviderError } from '../errors.js';
import type { AudioFormat, UpstreamAudioSource } from '../types.js';

function badAudio(provider: string, error: AudioFormatError): ProviderError {
  // The message is the pipeline's own wording; it never quotes upstream bytes.
  return new ProviderError({ provider, kind: 'protocol', category: 'upstream_bad_response', isRetryable: false, detail: error.message });
}

async function* converted(provider: string, source: AsyncIterator<Uint8Array>, output: OutputDescription, target: AudioFormat) {
  let pipeline;
  try {
    pipeline = createOutputPipeline(output, target);
  } catch (error) {
    await source.return?.();
    throw error instanceof AudioFormatError ? badAudio(provider, error) : error;
  }
  try {
    // Closing this generator (a client went away) closes `source`, which cancels the upstream request.
    yield* pipeline.transform({ [Symbol.asyncIterator]: () => source });
  } catch (error) {
    throw error instanceof AudioFormatError ? badAudio(provider, error) : error;
  }
}

/**
 * `source` itself when `output` is absent or already the target (it still tells when it is exhausted);
 * otherwise a converting iterator over it (which does not: the pipeline may hold bytes back).
 */
export function transcodeUpstream(
  provider: string,
  source: UpstreamAudioSource,
  output: OutputDescription | undefined,
  target: AudioFormat,
): UpstreamAudioSource {
  if (output === undefined || isAlreadyTarget(output, target)) return source;
  return converted(provider, source, output, target);
}

/** Whether the upstream body is text (SSE, NDJSON, encoded audio) rather than audio bytes. */
export function isTextFramed(output: OutputDescription | undefined): boolean {
  return output !== undefined && (output.framing?.kind ?? 'raw') !== 'raw';
}
