// ffprobe's view of audio bytes, when ffprobe is installed (the suites check MP3 frames in JavaScript
// without it), and the cheapest MP3 sanity check.
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
}

/** Undefined when ffprobe is not installed. */
export async function probeAudio(bytes: Uint8Array): Promise<ProbedAudio | undefined> {
  const directory = await mkdtemp(join(tmpdir(), 'vr-probe-'));
  const file = join(directory, 'audio.mp3');
  try {
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels', '-of', 'json', file]);
    const stream = (JSON.parse(stdout) as { streams: Array<{ codec_name: string; sample_rate: string; channels: number }> }).streams[0]!;
    return { codec: stream.codec_name, sampleRate: Number(stream.sample_rate), channels: Number(stream.channels) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export function startsWithMp3FrameSync(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}
