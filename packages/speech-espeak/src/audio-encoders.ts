// Encoders from 24 kHz mono s16 samples to the wire formats; each returns bytes as soon as it has them.
import { Mp3Encoder } from '@breezystack/lamejs';

export type AudioFormat = 'mp3' | 'pcm';

export interface AudioEncoder {
  /** Returns a Uint8Array that owns its whole buffer (so it can be transferred), possibly empty. */
  encode(samples: Int16Array): Uint8Array;
  flush(): Uint8Array;
}

/** MPEG-2 Layer III at 24 kHz; 48 kbps CBR is plenty for eSpeak's band-limited voice. */
export const MP3_BITRATE_KBPS = 48;

const PLATFORM_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

class PcmEncoder implements AudioEncoder {
  encode(samples: Int16Array): Uint8Array {
    const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
    // Int16Array uses the platform's byte order; the wire format is little-endian.
    if (!PLATFORM_IS_LITTLE_ENDIAN) {
      for (let index = 0; index < bytes.length; index += 2) {
        const first = bytes[index]!;
        bytes[index] = bytes[index + 1]!;
        bytes[index + 1] = first;
      }
    }
    return bytes;
  }

  flush(): Uint8Array {
    return new Uint8Array(0);
  }
}

class LameMp3Encoder implements AudioEncoder {
  readonly #lame: Mp3Encoder;

  constructor(sampleRate: number) {
    this.#lame = new Mp3Encoder(1, sampleRate, MP3_BITRATE_KBPS);
  }

  // lamejs returns a fresh Int8Array per call (typed as Uint8Array); view it as unsigned bytes.
  encode(samples: Int16Array): Uint8Array {
    return asBytes(this.#lame.encodeBuffer(samples));
  }

  flush(): Uint8Array {
    return asBytes(this.#lame.flush());
  }
}

function asBytes(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function createAudioEncoder(format: AudioFormat, sampleRate: number): AudioEncoder {
  return format === 'mp3' ? new LameMp3Encoder(sampleRate) : new PcmEncoder();
}
