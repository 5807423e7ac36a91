// Helpers shared by the providers' tests (fixtures are excluded from the build).

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SpeechInput } from '../types.js';

export async function collect(audio: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of audio) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Resolves with the rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

export function openAIInput(overrides: Partial<SpeechInput> = {}): SpeechInput {
  return { modelId: 'tts-1', voice: 'alloy', text: 'Hello from the router tests.', format: 'pcm', providerOptions: {}, ...overrides };
}

export function startsWithMp3FrameSync(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

const run = promisify(execFile);

/** ffprobe's view of MP3 bytes, or undefined when ffprobe is not installed. */
export async function probeMp3(bytes: Uint8Array): Promise<{ codec: string; sampleRate: number } | undefined> {
  const directory = await mkdtemp(join(tmpdir(), 'provider-audio-'));
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
