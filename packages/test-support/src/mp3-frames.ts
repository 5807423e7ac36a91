// Walks an MP3 byte stream frame by frame (MPEG-1/2/2.5 Layer III) so tests can prove audio is a
// well-formed MP3 without ffprobe. Skips a leading ID3v2 tag.

export interface Mp3Summary {
  frames: number;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** Bytes after the last whole frame (a truncated stream has some). */
  trailingBytes: number;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export function parseMp3Frames(bytes: Uint8Array): Mp3Summary {
  let offset = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
    offset = 10 + size;
  }
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  let channels = 0;
  while (offset + 4 <= bytes.length) {
    const b1 = bytes[offset + 1]!;
    const b2 = bytes[offset + 2]!;
    const b3 = bytes[offset + 3]!;
    if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no frame sync at byte ${offset}`);
    const version = (b1 >> 3) & 3;
    const layer = (b1 >> 1) & 3;
    if (version === 1 || layer !== 1) throw new Error(`not MPEG Layer III at byte ${offset}`);
    const bitrate = (version === 3 ? BITRATES_V1 : BITRATES_V2)[(b2 >> 4) & 15];
    const rate = SAMPLE_RATES[version]![(b2 >> 2) & 3];
    if (!bitrate || !rate) throw new Error(`bad bitrate or sample rate at byte ${offset}`);
    const padding = (b2 >> 1) & 1;
    const samplesPerFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((samplesPerFrame / 8) * bitrate * 1000) / rate) + padding;
    if (offset + length > bytes.length) break;
    if (sampleRate && rate !== sampleRate) throw new Error(`sample rate changed at byte ${offset}`);
    sampleRate = rate;
    channels = ((b3 >> 6) & 3) === 3 ? 1 : 2;
    frames += 1;
    samples += samplesPerFrame;
    offset += length;
  }
  if (frames === 0) throw new Error('no complete MP3 frame');
  return { frames, sampleRate, channels, durationSeconds: samples / sampleRate, trailingBytes: bytes.length - offset };
}
