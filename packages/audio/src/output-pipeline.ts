// Composes the stages that turn an upstream's audio (see OutputDescription) into the router's mp3 or
// pcm (s16le, 24 kHz, mono): framing → container (WAV header stripped) → samples (converted, downmixed)
// → resampled to 24 kHz → encoded. Every stage is incremental, so output leaves as soon as it exists;
// the only audio held back is what the resampler's filter and the MP3 frame size need.

import { AudioFormatError } from './errors.js';
import { createFramingDecoder, type FramingDecoder } from './framing.js';
import { StreamingMp3Encoder } from './mp3-encoder.js';
import { TARGET_SAMPLE_RATE, type OutputDescription, type TargetFormat } from './output-description.js';
import { Resampler } from './resampler.js';
import { SampleDecoder, toS16leBytes } from './sample-decoder.js';
import { WavParser, type PcmFormat } from './wav-parser.js';

export interface OutputPipeline {
  /** Feeds one upstream chunk (for `messages` framing: one whole message). Returns the output it completed. */
  push(chunk: Uint8Array | string): Uint8Array[];
  /** The upstream ended: returns the rest (resampler tail, last MP3 frame). Throws on a truncated container. */
  end(): Uint8Array[];
  /** Maps an upstream stream through push/end, yielding only non-empty output; closing it closes the source. */
  transform(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array, void, undefined>;
}

/** Whether an upstream answer described like this is already the target, byte for byte. */
export function isAlreadyTarget(source: OutputDescription, target: TargetFormat): boolean {
  const framing = source.framing?.kind ?? 'raw';
  if (framing !== 'raw') return false;
  if (target === 'mp3') return source.container === 'mp3';
  return source.container === 'raw' && source.encoding === 's16le' && source.sampleRate === TARGET_SAMPLE_RATE && (source.channels ?? 1) === 1;
}

/** Turns PCM bytes of one known format into target bytes. */
interface PcmSink {
  /** Lazy: MP3 frames are encoded as the caller pulls, so the first one leaves before the rest is encoded. */
  push(bytes: Uint8Array): Iterable<Uint8Array>;
  end(): Uint8Array[];
}

/**
 * Samples handed to the MP3 encoder per call (one MPEG-2 frame's worth), so a 4096-sample upstream chunk is
 * encoded in slices and each finished frame is yielded before the next slice is encoded. The resampler is
 * fed in slices that make about as many output samples, for the same reason: the first MP3 frame (or pcm
 * bytes) leaves once the first slices are resampled, not the whole chunk.
 */
const SLICE_SAMPLES = 576;

/** PCM samples (any format) to the target encoding at 24 kHz mono. */
class PcmStage implements PcmSink {
  readonly #decoder: SampleDecoder;
  readonly #resampler: Resampler | undefined;
  readonly #mp3: StreamingMp3Encoder | undefined;
  /** Input samples per resampler call: about SLICE_SAMPLES of output. */
  readonly #inputSlice: number;

  constructor(format: PcmFormat, target: TargetFormat) {
    this.#decoder = new SampleDecoder(format);
    this.#resampler = format.sampleRate === TARGET_SAMPLE_RATE ? undefined : new Resampler(format.sampleRate, TARGET_SAMPLE_RATE);
    this.#mp3 = target === 'mp3' ? new StreamingMp3Encoder() : undefined;
    this.#inputSlice = Math.ceil((SLICE_SAMPLES * format.sampleRate) / TARGET_SAMPLE_RATE);
  }

  *push(bytes: Uint8Array): Generator<Uint8Array> {
    const samples = this.#decoder.push(bytes);
    const resampler = this.#resampler;
    if (!resampler) {
      yield* this.#encode(samples);
      return;
    }
    // Any split gives the resampler's same output (it keeps the history its filter needs).
    for (let start = 0; start < samples.length; start += this.#inputSlice) {
      yield* this.#encode(resampler.process(samples.subarray(start, start + this.#inputSlice)));
    }
  }

  end(): Uint8Array[] {
    this.#decoder.end();
    const tail = [...this.#encode(this.#resampler ? this.#resampler.end() : new Float32Array(0))];
    return this.#mp3 ? [...tail, this.#mp3.flush()] : tail;
  }

  *#encode(samples: Float32Array): Generator<Uint8Array> {
    if (samples.length === 0) return;
    if (!this.#mp3) {
      yield toS16leBytes(samples);
      return;
    }
    for (let start = 0; start < samples.length; start += SLICE_SAMPLES) {
      const frames = this.#mp3.encode(samples.subarray(start, start + SLICE_SAMPLES));
      if (frames.length > 0) yield frames;
    }
  }
}

interface ContainerStage {
  push(bytes: Uint8Array): Iterable<Uint8Array>;
  end(): Uint8Array[];
}

class PassThroughStage implements ContainerStage {
  push(bytes: Uint8Array): Iterable<Uint8Array> {
    return [bytes];
  }

  end(): Uint8Array[] {
    return [];
  }
}

class RawPcmStage implements ContainerStage {
  readonly #pcm: PcmStage;

  constructor(format: PcmFormat, target: TargetFormat) {
    this.#pcm = new PcmStage(format, target);
  }

  push(bytes: Uint8Array): Iterable<Uint8Array> {
    return this.#pcm.push(bytes);
  }

  end(): Uint8Array[] {
    return this.#pcm.end();
  }
}

class WavStage implements ContainerStage {
  readonly #parser = new WavParser();
  #pcm: PcmSink | undefined;

  constructor(private readonly target: TargetFormat) {}

  *push(bytes: Uint8Array): Generator<Uint8Array> {
    for (const data of this.#parser.push(bytes)) yield* this.#stage().push(data);
  }

  end(): Uint8Array[] {
    this.#parser.end();
    return this.#stage().end();
  }

  #stage(): PcmSink {
    if (!this.#pcm) {
      const format = this.#parser.format!;
      const isTarget = this.target === 'pcm' && format.encoding === 's16le' && format.channels === 1 && format.sampleRate === TARGET_SAMPLE_RATE;
      // A WAV that already holds the target needs only its header stripped.
      this.#pcm = isTarget ? new PassThroughPcm() : new PcmStage(format, this.target);
    }
    return this.#pcm;
  }
}

/** Stands in for PcmStage when the samples are already s16le 24 kHz mono and the target is pcm. */
class PassThroughPcm implements PcmSink {
  push(bytes: Uint8Array): Iterable<Uint8Array> {
    return [bytes];
  }

  end(): Uint8Array[] {
    return [];
  }
}

function containerStage(source: OutputDescription, target: TargetFormat): ContainerStage {
  if (source.container === 'mp3') {
    if (target !== 'mp3') throw new AudioFormatError('decoding MP3 to pcm is not supported: ask the provider for PCM or WAV');
    return new PassThroughStage();
  }
  if (source.container === 'wav') return new WavStage(target);
  if (!Number.isInteger(source.sampleRate) || source.sampleRate < 1000) throw new AudioFormatError('raw PCM needs an integer sample rate');
  const format: PcmFormat = { encoding: source.encoding, sampleRate: source.sampleRate, channels: source.channels ?? 1 };
  if (target === 'pcm' && format.encoding === 's16le' && format.channels === 1 && format.sampleRate === TARGET_SAMPLE_RATE) {
    return new PassThroughStage();
  }
  return new RawPcmStage(format, target);
}

class ComposedPipeline implements OutputPipeline {
  readonly #framing: FramingDecoder;
  readonly #container: ContainerStage;

  constructor(source: OutputDescription, target: TargetFormat) {
    this.#framing = createFramingDecoder(source.framing);
    this.#container = containerStage(source, target);
  }

  push(chunk: Uint8Array | string): Uint8Array[] {
    return [...this.#through(this.#framing.push(chunk))];
  }

  end(): Uint8Array[] {
    const output = [...this.#through(this.#framing.end())];
    output.push(...this.#container.end().filter((bytes) => bytes.length > 0));
    return output;
  }

  async *transform(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array, void, undefined> {
    // A suspended generator keeps what its variables last held, and a chunk is often a view into a whole
    // socket read: the chunk, the pieces decoded from it (views into it) and their output are declared out
    // here and let go of before the next chunk is awaited. Index loops: an iterator would hold them too.
    // Not `for await`: on Node 26 (V8 14) it keeps the last chunk in the suspended generator however the
    // loop's variable is cleared; the loop calls next() and, when it is left early, return() as it would.
    const chunks = source[Symbol.asyncIterator]();
    let next: IteratorResult<Uint8Array | string> | undefined;
    let pieces: Uint8Array[] | undefined;
    let output: Iterator<Uint8Array> | undefined;
    // True while next() runs and once it has said done or thrown: then there is nothing for return() to close.
    let sourceOver = false;
    try {
      for (;;) {
        sourceOver = true;
        next = await chunks.next();
        if (next.done) break;
        sourceOver = false;
        pieces = this.#framing.push(next.value);
        next = undefined;
        for (let piece = 0; piece < pieces.length; piece++) {
          if (pieces[piece]!.length === 0) continue;
          // Lazy: each output piece is handed on before the rest of the chunk is encoded.
          output = this.#container.push(pieces[piece]!)[Symbol.iterator]();
          for (let step = output.next(); !step.done; step = output.next()) if (step.value.length > 0) yield step.value;
        }
        pieces = undefined;
        output = undefined;
      }
    } catch (error) {
      // A stage threw: the source is closed, and its own failure to close does not hide this error (as
      // with `for await`).
      if (!sourceOver) {
        sourceOver = true;
        try {
          await chunks.return?.();
        } catch {
          // This error is the one to report.
        }
      }
      throw error;
    } finally {
      // The consumer left early (return() on this generator): close the source.
      if (!sourceOver) await chunks.return?.();
    }
    for (const bytes of this.end()) yield bytes;
  }

  *#through(pieces: Uint8Array[]): Generator<Uint8Array> {
    for (const piece of pieces) {
      if (piece.length === 0) continue;
      for (const bytes of this.#container.push(piece)) if (bytes.length > 0) yield bytes;
    }
  }
}

/** Throws AudioFormatError at once for a conversion that cannot be done (MP3 in, pcm out). */
export function createOutputPipeline(source: OutputDescription, target: TargetFormat): OutputPipeline {
  return new ComposedPipeline(source, target);
}
