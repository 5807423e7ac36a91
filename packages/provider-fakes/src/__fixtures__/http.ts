// Small HTTP helpers shared by the fakes' tests (fixtures are excluded from the build).

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface PostResult {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

export async function post(url: string, headers: Record<string, string>, body: unknown): Promise<PostResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

export function startsWithMp3FrameSync(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

const run = promisify(execFile);

/** ffprobe's view of an audio file, or undefined when ffprobe is not installed. */
export async function probeAudio(bytes: Uint8Array): Promise<{ codec: string; sampleRate: number } | undefined> {
  const directory = await mkdtemp(join(tmpdir(), 'fake-audio-'));
  const file = join(directory, 'audio.mp3');
  try {
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate', '-of', 'json', file]);
    const stream = (JSON.parse(stdout) as { streams: Array<{ codec_name: string; sample_rate: string }> }).streams[0]!;
    return { codec: stream.codec_name, sampleRate: Number(stream.sample_rate) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
