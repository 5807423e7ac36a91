// Streaming RIFF/WAVE reader: reads the fmt chunk, skips every other chunk, and hands out the `data`
// payload as it arrives. Chunks may be split at any byte. A data size of 0 or 0xFFFFFFFF (what streaming
// encoders write when they do not know the length yet) means "until the body ends"; RF64 is read the same way.

import { AudioFormatError } from './errors.js';
import type { PcmEncoding } from './output-description.js';

export interface PcmFormat {
  encoding: PcmEncoding;
  sampleRate: number;
  channels: number;
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_ALAW = 6;
const FORMAT_MULAW = 7;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Longer fmt chunks than this are not WAV fmt chunks (the extensible one is 40 bytes). */
const MAX_FMT_BYTES = 1024;
const UNBOUNDED = -1;

function encodingFor(formatTag: number, bitsPerSample: number): PcmEncoding {
  if (formatTag === FORMAT_PCM) {
    if (bitsPerSample === 16) return 's16le';
    if (bitsPerSample === 24) return 's24le';
    if (bitsPerSample === 32) return 's32le';
    if (bitsPerSample === 8) return 'u8';
  }
  if (formatTag === FORMAT_FLOAT && bitsPerSample === 32) return 'f32le';
  if (formatTag === FORMAT_ALAW && bitsPerSample === 8) return 'alaw';
  if (formatTag === FORMAT_MULAW && bitsPerSample === 8) return 'mulaw';
  throw new AudioFormatError(`unsupported WAV sample format (tag ${formatTag}, ${bitsPerSample} bits)`);
}

export function parseFmtChunk(bytes: Uint8Array): PcmFormat {
  if (bytes.length < 16) throw new AudioFormatError('WAV fmt chunk is too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let formatTag = view.getUint16(0, true);
  const channels = view.getUint16(2, true);
  const sampleRate = view.getUint32(4, true);
  const bitsPerSample = view.getUint16(14, true);
  if (formatTag === FORMAT_EXTENSIBLE) {
    // WAVE_FORMAT_EXTENSIBLE: the real tag is the first two bytes of the SubFormat GUID at offset 24.
    if (bytes.length < 26) throw new AudioFormatError('WAV extensible fmt chunk is too short');
    formatTag = view.getUint16(24, true);
  }
  if (channels < 1 || channels > 8) throw new AudioFormatError(`unsupported WAV channel count ${channels}`);
  if (sampleRate < 1000 || sampleRate > 384_000) throw new AudioFormatError(`unsupported WAV sample rate ${sampleRate}`);
  return { encoding: encodingFor(formatTag, bitsPerSample), sampleRate, channels };
}

type State =
  | { kind: 'riff' }
  | { kind: 'chunk-header' }
  | { kind: 'fmt'; size: number }
  | { kind: 'skip'; remaining: number }
  | { kind: 'data'; remaining: number; pad: boolean };

export class WavParser {
  #state: State = { kind: 'riff' };
  /** Header bytes not complete yet (RIFF header, chunk header, fmt body). Never holds audio. */
  #pending: Uint8Array = new Uint8Array(0);
  #format: PcmFormat | undefined;

  /** Set once the fmt chunk was read; audio is never returned before it. */
  get format(): PcmFormat | undefined {
    return this.#format;
  }

  /** Returns the data payload found in `chunk` (views into it, no copies). */
  push(chunk: Uint8Array): Uint8Array[] {
    const audio: Uint8Array[] = [];
    let input = chunk;
    while (input.length > 0) {
      const state = this.#state;
      if (state.kind === 'data') {
        const take = state.remaining === UNBOUNDED ? input.length : Math.min(state.remaining, input.length);
        if (take > 0) audio.push(input.subarray(0, take));
        input = input.subarray(take);
        if (state.remaining !== UNBOUNDED) {
          state.remaining -= take;
          if (state.remaining === 0) this.#state = state.pad ? { kind: 'skip', remaining: 1 } : { kind: 'chunk-header' };
        }
        continue;
      }
      if (state.kind === 'skip') {
        const take = Math.min(state.remaining, input.length);
        state.remaining -= take;
        input = input.subarray(take);
        if (state.remaining === 0) this.#state = { kind: 'chunk-header' };
        continue;
      }
      const needed = state.kind === 'riff' ? 12 : state.kind === 'chunk-header' ? 8 : state.size;
      // The rest is handed back, not kept on the parser: it is a view into the caller's chunk.
      const { header, rest } = this.#collect(input, needed);
      input = rest;
      if (!header) continue;
      this.#handleHeader(header);
    }
    return audio;
  }

  /** The body ended. A WAV that never reached its data chunk is refused. */
  end(): void {
    if (!this.#format || (this.#state.kind !== 'data' && this.#state.kind !== 'chunk-header' && this.#state.kind !== 'skip')) {
      throw new AudioFormatError('the WAV stream ended before its audio data');
    }
  }

  /** Accumulates `needed` header bytes; returns them when complete, and the input they left unused. */
  #collect(input: Uint8Array, needed: number): { header?: Uint8Array; rest: Uint8Array } {
    const missing = needed - this.#pending.length;
    if (input.length < missing) {
      this.#pending = concat(this.#pending, input);
      return { rest: new Uint8Array(0) };
    }
    const header = this.#pending.length === 0 ? input.subarray(0, missing) : concat(this.#pending, input.subarray(0, missing));
    this.#pending = new Uint8Array(0);
    return { header, rest: input.subarray(missing) };
  }

  #handleHeader(bytes: Uint8Array): void {
    const state = this.#state;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (state.kind === 'riff') {
      const riff = ascii(bytes, 0);
      if ((riff !== 'RIFF' && riff !== 'RF64') || ascii(bytes, 8) !== 'WAVE') throw new AudioFormatError('not a RIFF/WAVE stream');
      this.#state = { kind: 'chunk-header' };
      return;
    }
    if (state.kind === 'fmt') {
      this.#format = parseFmtChunk(bytes);
      this.#state = state.size % 2 === 1 ? { kind: 'skip', remaining: 1 } : { kind: 'chunk-header' };
      return;
    }
    const id = ascii(bytes, 0);
    const size = view.getUint32(4, true);
    if (id === 'fmt ') {
      if (size < 16 || size > MAX_FMT_BYTES) throw new AudioFormatError('WAV fmt chunk has an impossible size');
      this.#state = { kind: 'fmt', size };
    } else if (id === 'data') {
      if (!this.#format) throw new AudioFormatError('WAV data chunk came before its fmt chunk');
      const unbounded = size === 0 || size === 0xffffffff;
      this.#state = { kind: 'data', remaining: unbounded ? UNBOUNDED : size, pad: size % 2 === 1 };
    } else {
      // LIST, fact, ds64, id3 and anything else: skipped, with the pad byte of odd sizes.
      const remaining = size + (size % 2);
      this.#state = remaining === 0 ? { kind: 'chunk-header' } : { kind: 'skip', remaining };
    }
  }
}

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
