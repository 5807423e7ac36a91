// Reads MPEG audio frame headers, so bodies can be cut and looped on frame boundaries and stay decodable.

const BIT_RATES_MPEG1_LAYER3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BIT_RATES_MPEG2_LAYER3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};

export interface Mp3FrameHeader {
  sampleRate: number;
  bitRateKbps: number;
  /** Whole frame length in bytes, header included. */
  length: number;
}

/** Parses the layer III frame header at `offset`, or returns undefined when there is none. */
export function readMp3FrameHeader(bytes: Uint8Array, offset: number): Mp3FrameHeader | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const byte1 = bytes[offset + 1]!;
  const byte2 = bytes[offset + 2]!;
  if (bytes[offset] !== 0xff || (byte1 & 0xe0) !== 0xe0) return undefined;
  const version = (byte1 >> 3) & 0x03;
  const layer = (byte1 >> 1) & 0x03;
  if (version === 1 || layer !== 1) return undefined; // reserved version, or not layer III
  const bitRateIndex = byte2 >> 4;
  const sampleRateIndex = (byte2 >> 2) & 0x03;
  const padding = (byte2 >> 1) & 0x01;
  const sampleRate = SAMPLE_RATES[version]?.[sampleRateIndex];
  const bitRateKbps = (version === 3 ? BIT_RATES_MPEG1_LAYER3 : BIT_RATES_MPEG2_LAYER3)[bitRateIndex];
  if (!sampleRate || !bitRateKbps) return undefined;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  const length = Math.floor((samplesPerFrame / 8) * (bitRateKbps * 1000) / sampleRate) + padding;
  return { sampleRate, bitRateKbps, length };
}

/** Lengths of the consecutive frames from the start of `bytes`; throws if the data is not a clean frame sequence. */
export function mp3FrameLengths(bytes: Uint8Array): number[] {
  const lengths: number[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const header = readMp3FrameHeader(bytes, offset);
    if (!header) throw new Error(`no MP3 frame header at byte ${offset}`);
    lengths.push(header.length);
    offset += header.length;
  }
  if (offset !== bytes.length) throw new Error('MP3 data ends inside a frame');
  return lengths;
}
