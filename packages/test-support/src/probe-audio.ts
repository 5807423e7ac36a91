// ffprobe's view of audio bytes, when ffprobe is installed (the suites check MP3 frames in JavaScript
// without it), and the cheapest MP3 sanity check. Shared by every provider's output-format tests:
// `probeAudio(bytes, 'pcm')` wraps the router's headerless pcm (s16le, 24 kHz, mono) in a WAV header first,
// so ffprobe checks the same claims the spec makes about it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedAudio {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Seconds of audio ffprobe reports (decoded length for WAV; frame count × frame time for MP3). */
  durationSeconds: number;
}

/** mp3 and wav are probed as they are; pcm is the router's pcm (s16le, 24,000 Hz, mono, no header). */
export type ProbeFormat = 'mp3' | 'pcm' | 'wav';

/** The router's pcm as a canonical 44-byte-header WAV file (s16le, mono) at `sampleRate`. */
export function wrapPcmInWav(pcm: Uint8Array, sampleRate = 24_000): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

let ffprobeMissing = false;

/** Whether ffprobe could be run (false once a probe found it missing). */
export function ffprobeAvailable(): boolean {
  return !ffprobeMissing;
}

/** Undefined when ffprobe is not installed. */
export async function probeAudio(bytes: Uint8Array, format: ProbeFormat = 'mp3'): Promise<ProbedAudio | undefined> {
  if (ffprobeMissing) return undefined;
  const directory = await mkdtemp(join(tmpdir(), 'vr-probe-'));
  const file = join(directory, format === 'mp3' ? 'audio.mp3' : 'audio.wav');
  try {
    await writeFile(file, format === 'pcm' ? wrapPcmInWav(bytes) : bytes);
    const { stdout } = await run('ffprobe', [
      '-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels,duration', '-of', 'json', file,
    ]);
    const stream = (JSON.parse(stdout) as { streams: Array<{ codec_name: string; sample_rate: string; channels: number; duration?: string }> }).streams[0]!;
    return {
      codec: stream.codec_name,
      sampleRate: Number(stream.sample_rate),
      channels: Number(stream.channels),
      durationSeconds: Number(stream.duration ?? Number.NaN),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      ffprobeMissing = true;
      return undefined;
    }
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export function startsWithMp3FrameSync(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}
