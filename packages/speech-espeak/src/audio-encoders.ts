// Encoders from 24 kHz mono samples (float, on the 16-bit scale, as the resampler gives them) to the wire
// formats; each returns bytes as soon as it has them.
import { StreamingMp3Encoder, toS16leBytes } from '@voice-router/audio';

export type AudioFormat = 'mp3' | 'pcm';

export interface AudioEncoder {
  /** Returns a Uint8Array that owns its whole buffer (so it can be transferred), possibly empty. */
  encode(samples: Float32Array): Uint8Array;
  flush(): Uint8Array;
}

/** MPEG-2 Layer III at 24 kHz; 48 kbps CBR is plenty for eSpeak's band-limited voice. */
export const MP3_BITRATE_KBPS = 48;

class PcmEncoder implements AudioEncoder {
  /** s16le, rounded and clipped, in a buffer of its own. */
  encode(samples: Float32Array): Uint8Array {
    return toS16leBytes(samples);
  }

  flush(): Uint8Array {
    return new Uint8Array(0);
  }
}

export function createAudioEncoder(format: AudioFormat, sampleRate: number): AudioEncoder {
  // MP3: LAME in WebAssembly, through the audio package (its encoder copies every output into a buffer of its own).
  return format === 'mp3' ? new StreamingMp3Encoder(MP3_BITRATE_KBPS, sampleRate) : new PcmEncoder();
}
