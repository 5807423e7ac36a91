// The double's synthesize answers: ONE JSON object, `{"audioContent": "<base64>"}`, whose base64 text is
// streamed from a loop so long texts give long bodies. The loop is cut only where the decoded bytes end on
// an MP3 frame (or whole samples) AND on a base64 quantum, so every body is valid base64 of valid audio.
// LINEAR16 starts with a WAV header as Google's does (with streaming-size fields: the length is not known
// when the body starts).

import { mp3ToneAudio, pcmToneAudio, wavToneAudio, type LoopedAudio } from '../testing/audio/tone-audio.js';

export type GoogleFakeEncoding = 'MP3' | 'LINEAR16';
/**
 * Google documents its MP3 as 32 kbps; the double's encoder (lamejs) resamples 32 kbps to 22.05 kHz, so the
 * double serves the nearest rate it keeps at the asked 24 kHz: 40 kbps.
 */
export const GOOGLE_MP3_KBPS = 40;
const cache = new Map<string, LoopedAudio>();

const prefix = (pretty: boolean) => (pretty ? '{\n  "audioContent": "' : '{"audioContent":"');
const suffix = (pretty: boolean) => (pretty ? '"\n}\n' : '"}');

/** `unit` repeated until its length is a multiple of 3, so its base64 text loops seamlessly. */
function loopable(unit: Buffer): { bytes: Buffer; copies: number } {
  const copies = unit.length % 3 === 0 ? 1 : 3;
  return { bytes: Buffer.concat(Array.from({ length: copies }, () => unit)), copies };
}

/** Cut points (byte offsets, ending with the loop's length) that are unit boundaries on a base64 quantum. */
function quantumCuts(boundaries: number[], length: number): number[] {
  return [...boundaries.filter((offset) => offset > 0 && offset % 3 === 0), length];
}

function toFrameLengths(cuts: number[]): number[] {
  return cuts.map((cut, index) => ((cut - (index === 0 ? 0 : cuts[index - 1]!)) / 3) * 4);
}

function mp3Body(pretty: boolean): LoopedAudio {
  const tone = mp3ToneAudio(GOOGLE_MP3_KBPS);
  const { bytes, copies } = loopable(tone.buffer);
  const boundaries: number[] = [];
  let offset = 0;
  for (let copy = 0; copy < copies; copy += 1) {
    for (const frameLength of tone.frameLengths!) {
      boundaries.push(offset);
      offset += frameLength;
    }
  }
  return {
    header: Buffer.from(prefix(pretty)),
    buffer: Buffer.from(bytes.toString('base64')),
    trailer: Buffer.from(suffix(pretty)),
    frameLengths: toFrameLengths(quantumCuts(boundaries, bytes.length)),
  };
}

function linear16Body(pretty: boolean): LoopedAudio {
  const pcm = pcmToneAudio().buffer;
  // WAV header (44 bytes) plus the first 4 PCM bytes make 48, a whole number of base64 quanta; the loop is
  // the PCM rotated by those 4 bytes, so the decoded stream is header + the seamless tone.
  const head = Buffer.concat([wavToneAudio().header!, pcm.subarray(0, 4)]);
  const rotated = Buffer.concat([pcm.subarray(4), pcm.subarray(0, 4)]);
  const { bytes } = loopable(rotated);
  // Every 6 bytes: whole samples and whole quanta.
  const boundaries = Array.from({ length: bytes.length / 6 }, (_, index) => index * 6);
  return {
    header: Buffer.from(prefix(pretty) + head.toString('base64')),
    buffer: Buffer.from(bytes.toString('base64')),
    trailer: Buffer.from(suffix(pretty)),
    frameLengths: toFrameLengths(quantumCuts(boundaries, bytes.length)),
  };
}

export function googleJsonAudio(encoding: GoogleFakeEncoding, pretty: boolean): LoopedAudio {
  const key = `${encoding}:${pretty}`;
  let audio = cache.get(key);
  if (!audio) {
    audio = encoding === 'MP3' ? mp3Body(pretty) : linear16Body(pretty);
    cache.set(key, audio);
  }
  return audio;
}

/** Base64 characters per second of speech, for sizing bodies like real clips. */
export function base64BytesPerSecond(encoding: GoogleFakeEncoding): number {
  return ((encoding === 'MP3' ? (GOOGLE_MP3_KBPS * 1000) / 8 : 48_000) * 4) / 3;
}
