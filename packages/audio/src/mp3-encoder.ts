// Streaming MP3 encoding of 24 kHz mono samples through @breezystack/lamejs (LGPL-3.0, pure JavaScript).
// lamejs returns each MPEG frame as soon as it has enough samples for it, so bytes leave every ~48 ms of audio.

import { Mp3Encoder } from '@breezystack/lamejs';
import { TARGET_SAMPLE_RATE } from './output-description.js';

/**
 * Bit rate of MP3 the router encodes itself. 24 kHz mono is MPEG-2 Layer III (8–160 kbps); 64 kbps CBR is
 * transparent for speech at that bandwidth while staying small (8 KB per second of audio).
 */
export const TRANSCODED_MP3_BITRATE_KBPS = 64;

/**
 * Building a lamejs encoder allocates its tables and takes ~10 ms of CPU here: too much to spend between an
 * upstream's first byte and ours. One spare encoder for the default settings is built ahead, off the request
 * path (on a timer after the previous one was taken), so a request normally starts with one ready.
 */
let spare: Mp3Encoder | undefined;
let refillPending = false;

function scheduleSpare(): void {
  if (refillPending || spare) return;
  refillPending = true;
  setTimeout(() => {
    refillPending = false;
    spare ??= new Mp3Encoder(1, TARGET_SAMPLE_RATE, TRANSCODED_MP3_BITRATE_KBPS);
  }, 0).unref();
}

function takeEncoder(bitrateKbps: number, sampleRate: number): Mp3Encoder {
  const isDefault = bitrateKbps === TRANSCODED_MP3_BITRATE_KBPS && sampleRate === TARGET_SAMPLE_RATE;
  const ready = isDefault ? spare : undefined;
  if (ready) spare = undefined;
  if (isDefault) scheduleSpare();
  return ready ?? new Mp3Encoder(1, sampleRate, bitrateKbps);
}

export class StreamingMp3Encoder {
  readonly #lame: Mp3Encoder;

  constructor(bitrateKbps = TRANSCODED_MP3_BITRATE_KBPS, sampleRate = TARGET_SAMPLE_RATE) {
    this.#lame = takeEncoder(bitrateKbps, sampleRate);
  }

  /** Returns the frames completed by these samples (often none for short blocks). */
  encode(samples: Int16Array): Uint8Array {
    return samples.length === 0 ? new Uint8Array(0) : asBytes(this.#lame.encodeBuffer(samples));
  }

  /** The last partial frame, padded. */
  flush(): Uint8Array {
    return asBytes(this.#lame.flush());
  }
}

// lamejs returns Int8Array views despite its typings; view them as unsigned bytes.
function asBytes(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
