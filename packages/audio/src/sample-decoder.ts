// PCM bytes of any supported encoding and channel count to mono samples on the 16-bit scale
// (float, so the resampler keeps precision), carrying partial frames across chunk boundaries.
// Stereo and wider are downmixed by averaging the channels.

import type { PcmEncoding } from './output-description.js';
import type { PcmFormat } from './wav-parser.js';

const BYTES_PER_SAMPLE: Record<PcmEncoding, number> = {
  s16le: 2, s16be: 2, s24le: 3, s32le: 4, f32le: 4, u8: 1, mulaw: 1, alaw: 1,
};

/** G.711 mu-law byte to a 16-bit sample (ITU-T G.711, as in Sun's g711.c). */
function mulawToLinear(byte: number): number {
  const value = ~byte & 0xff;
  const exponent = (value >> 4) & 0x07;
  const magnitude = (((value & 0x0f) << 3) + 0x84) << exponent;
  return value & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

/** G.711 A-law byte to a 16-bit sample. */
function alawToLinear(byte: number): number {
  const value = byte ^ 0x55;
  const exponent = (value >> 4) & 0x07;
  let magnitude = (value & 0x0f) << 4;
  magnitude = exponent === 0 ? magnitude + 8 : (magnitude + 0x108) << (exponent - 1);
  return value & 0x80 ? magnitude : -magnitude;
}

const MULAW_TABLE = Float32Array.from({ length: 256 }, (_, byte) => mulawToLinear(byte));
const ALAW_TABLE = Float32Array.from({ length: 256 }, (_, byte) => alawToLinear(byte));

type SampleReader = (view: DataView, offset: number) => number;

const READERS: Record<PcmEncoding, SampleReader> = {
  s16le: (view, offset) => view.getInt16(offset, true),
  s16be: (view, offset) => view.getInt16(offset, false),
  s24le: (view, offset) => ((view.getUint8(offset + 2) << 24) | (view.getUint8(offset + 1) << 16) | (view.getUint8(offset) << 8)) / 65536,
  s32le: (view, offset) => view.getInt32(offset, true) / 65536,
  f32le: (view, offset) => Math.max(-1, Math.min(1, view.getFloat32(offset, true))) * 32767,
  u8: (view, offset) => (view.getUint8(offset) - 128) * 256,
  mulaw: (view, offset) => MULAW_TABLE[view.getUint8(offset)]!,
  alaw: (view, offset) => ALAW_TABLE[view.getUint8(offset)]!,
};

export class SampleDecoder {
  readonly #frameBytes: number;
  readonly #sampleBytes: number;
  readonly #read: SampleReader;
  /** At most one frame minus a byte, left over from the previous chunk. */
  #carry = new Uint8Array(0);

  constructor(private readonly format: PcmFormat) {
    this.#sampleBytes = BYTES_PER_SAMPLE[format.encoding];
    this.#frameBytes = this.#sampleBytes * format.channels;
    this.#read = READERS[format.encoding];
  }

  push(chunk: Uint8Array): Float32Array {
    let bytes = chunk;
    if (this.#carry.length > 0) {
      bytes = new Uint8Array(this.#carry.length + chunk.length);
      bytes.set(this.#carry, 0);
      bytes.set(chunk, this.#carry.length);
    }
    const frames = Math.floor(bytes.length / this.#frameBytes);
    const used = frames * this.#frameBytes;
    // A copy (at most a frame): a Buffer's slice() is a view, which kept the whole chunk, often a whole
    // socket read, until the next push.
    this.#carry = Uint8Array.prototype.slice.call(bytes, used);
    const output = new Float32Array(frames);
    const view = new DataView(bytes.buffer, bytes.byteOffset, used);
    const { channels } = this.format;
    const read = this.#read;
    const sampleBytes = this.#sampleBytes;
    if (channels === 1) {
      for (let frame = 0; frame < frames; frame++) output[frame] = read(view, frame * sampleBytes);
    } else {
      for (let frame = 0, offset = 0; frame < frames; frame++) {
        let sum = 0;
        for (let channel = 0; channel < channels; channel++, offset += sampleBytes) sum += read(view, offset);
        output[frame] = sum / channels;
      }
    }
    return output;
  }

  /** Bytes of an incomplete last frame: dropped (they cannot form a sample), reported for diagnostics. */
  end(): number {
    const dropped = this.#carry.length;
    this.#carry = new Uint8Array(0);
    return dropped;
  }
}

/** Float samples on the 16-bit scale to s16le bytes, rounded and clipped. */
export function toS16leBytes(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < samples.length; index++) {
    const value = Math.round(samples[index]!);
    view.setInt16(index * 2, value > 32767 ? 32767 : value < -32768 ? -32768 : value, true);
  }
  return bytes;
}
