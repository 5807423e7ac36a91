// Public surface of @voice-router/audio: the streaming output-format pipeline and its parts.
export { AudioFormatError } from './errors.js';
export { createFramingDecoder, type FramingDecoder } from './framing.js';
export { StreamingMp3Encoder, TRANSCODED_MP3_BITRATE_KBPS } from './mp3-encoder.js';
export {
  TARGET_SAMPLE_RATE,
  type Framing,
  type OutputDescription,
  type PcmEncoding,
  type TargetFormat,
  type TextAudioEncoding,
} from './output-description.js';
export { createOutputPipeline, isAlreadyTarget, type OutputPipeline } from './output-pipeline.js';
export { Resampler, type ResamplerOptions } from './resampler.js';
export { SampleDecoder, toS16leBytes } from './sample-decoder.js';
export { parseFmtChunk, WavParser, type PcmFormat } from './wav-parser.js';
