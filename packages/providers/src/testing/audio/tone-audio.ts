// Builds the fakes' audio once per process: a 24 kHz mono tone as raw s16le PCM and as real MP3 (via lamejs)
// at whatever sample rate and bit rate a provider's format asks for.
// Response bodies are slices of these buffers, looped, so serving a request allocates no audio.

import { Mp3Encoder } from '@breezystack/lamejs';
import { mp3FrameLengths } from './mp3-frames.js';

export const SAMPLE_RATE = 24_000;
/** 2 s of a 440 Hz tone holds a whole number of cycles, so the PCM loop is seamless. */
const LOOP_SECONDS = 2;
const TONE_HERTZ = 440;
const AMPLITUDE = 0.25 * 32767;
/** lamejs encodes in blocks of this many samples. */
const ENCODER_BLOCK = 1152;
/** Layer III at 16/22.05/24 kHz is MPEG-2 (8 to 160 kbps); at 32/44.1/48 kHz MPEG-1 (32 to 320 kbps). */
const MPEG2_BIT_RATES = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MPEG1_BIT_RATES = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG1_SAMPLE_RATES = new Set([32_000, 44_100, 48_000]);

/** A loopable audio buffer plus the unit bodies must be cut in (whole frames or whole samples). */
export interface LoopedAudio {
  buffer: Buffer;
  /** Sent once before the looped body (a streaming WAV header); not counted in the body's size. */
  header?: Buffer;
  /** Sent once after a completed body (the end of a JSON document); not counted in the body's size. */
  trailer?: Buffer;
  /** MP3: every frame length in order; PCM: undefined (cut on 2-byte sample boundaries). */
  frameLengths?: number[];
}

const pcmTones = new Map<number, LoopedAudio>();
const wavTones = new Map<number, LoopedAudio>();
const mp3Tones = new Map<string, LoopedAudio>();

function toneSamples(sampleRate = SAMPLE_RATE): Int16Array {
  const count = sampleRate * LOOP_SECONDS;
  const samples = new Int16Array(count);
  for (let index = 0; index < count; index += 1) {
    samples[index] = Math.round(Math.sin((2 * Math.PI * TONE_HERTZ * index) / sampleRate) * AMPLITUDE);
  }
  return samples;
}

/** The tone as raw s16le mono PCM at `sampleRate` (24 kHz unless a provider was asked for another rate). */
export function pcmToneAudio(sampleRate = SAMPLE_RATE): LoopedAudio {
  let audio = pcmTones.get(sampleRate);
  if (!audio) {
    const samples = toneSamples(sampleRate);
    audio = { buffer: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength) };
    pcmTones.set(sampleRate, audio);
  }
  return audio;
}

/**
 * The tone as a streaming WAV: a 44-byte RIFF header whose RIFF and data sizes are 0xFFFFFFFF (the length is
 * unknown when streaming starts, as streaming TTS services write it), then s16le mono PCM at `sampleRate`.
 */
export function wavToneAudio(sampleRate = SAMPLE_RATE): LoopedAudio {
  let audio = wavTones.get(sampleRate);
  if (!audio) {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(0xffffffff, 4);
    header.write('WAVEfmt ', 8, 'ascii');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(sampleRate, 24);
    header.writeUInt32LE(sampleRate * 2, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'ascii');
    header.writeUInt32LE(0xffffffff, 40);
    audio = { buffer: pcmToneAudio(sampleRate).buffer, header };
    wavTones.set(sampleRate, audio);
  }
  return audio;
}

/** Nearest bit rate layer III can carry at this sample rate, so any requested rate still yields valid frames. */
export function supportedMp3BitRate(requestedKbps: number, sampleRate = SAMPLE_RATE): number {
  const rates = MPEG1_SAMPLE_RATES.has(sampleRate) ? MPEG1_BIT_RATES : MPEG2_BIT_RATES;
  let best = rates[0]!;
  for (const rate of rates) if (Math.abs(rate - requestedKbps) < Math.abs(best - requestedKbps)) best = rate;
  return best;
}

/** A mono MP3 tone at `sampleRate` (default 24 kHz), CBR at the nearest valid bit rate to `requestedKbps`. */
export function mp3ToneAudio(requestedKbps: number, sampleRate = SAMPLE_RATE): LoopedAudio {
  const bitRate = supportedMp3BitRate(requestedKbps, sampleRate);
  const key = `${sampleRate}:${bitRate}`;
  let audio = mp3Tones.get(key);
  if (!audio) {
    const samples = toneSamples(sampleRate);
    const encoder = new Mp3Encoder(1, sampleRate, bitRate);
    // lamejs hands back Int8Array views despite its typings; copy them as bytes.
    const toBytes = (part: ArrayBufferView) => Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    const parts: Buffer[] = [];
    for (let start = 0; start < samples.length; start += ENCODER_BLOCK) {
      parts.push(toBytes(encoder.encodeBuffer(samples.subarray(start, start + ENCODER_BLOCK))));
    }
    parts.push(toBytes(encoder.flush()));
    const buffer = Buffer.concat(parts);
    audio = { buffer, frameLengths: mp3FrameLengths(buffer) };
    mp3Tones.set(key, audio);
  }
  return audio;
}

/**
 * Body length for `wantedBytes`, rounded down to whole frames (MP3) or whole samples (PCM), and at least one
 * unit so a request always gets audio. The body is the looped buffer read from offset 0.
 */
export function alignedBodyLength(audio: LoopedAudio, wantedBytes: number): number {
  const wanted = Math.max(0, Math.floor(wantedBytes));
  if (!audio.frameLengths) return Math.max(2, wanted - (wanted % 2));
  const loops = Math.floor(wanted / audio.buffer.length);
  let length = loops * audio.buffer.length;
  for (const frameLength of audio.frameLengths) {
    if (length + frameLength > wanted) break;
    length += frameLength;
  }
  return Math.max(length, audio.frameLengths[0]!);
}

/** Real speech runs at roughly 15 characters per second; the fakes size bodies the same way. */
export function speechLikeByteCount(characters: number, bytesPerSecond: number): number {
  const seconds = Math.max(0.5, characters / 15);
  return Math.round(seconds * bytesPerSecond);
}
