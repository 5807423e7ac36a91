// Copies a response body to a file or to stdout chunk by chunk, honouring backpressure, so a long
// recording never sits in memory whole.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { CliError } from './cli-errors.js';
import type { OutputStream } from './cli-io.js';

export async function copyToStream(body: ReadableStream<Uint8Array>, destination: OutputStream): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (!destination.write(chunk)) await new Promise<void>((resolve) => destination.once('drain', resolve));
  }
  return bytes;
}

export interface AudioFile {
  /** Streams the body in; on failure the partial file is removed so it is never mistaken for audio. */
  write(body: ReadableStream<Uint8Array>): Promise<number>;
  /** Removes the partial file when no audio will come (the request was refused). */
  discard(): void;
}

/**
 * Opened before the request is sent, so an unwritable folder fails before anything is charged. The
 * audio goes to a temporary file beside the target and replaces it only when complete, so a failed
 * request never destroys an earlier recording of the same name.
 */
export async function openAudioFile(file: string): Promise<AudioFile> {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.part`);
  const stream = fs.createWriteStream(partial, { flags: 'wx' });
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new CliError(`Cannot write next to ${file}: ${(error as Error).message}`);
  }
  const discard = () => {
    stream.destroy();
    fs.rmSync(partial, { force: true });
  };
  return {
    async write(body) {
      try {
        const bytes = await copyToStream(body, stream);
        stream.end();
        await once(stream, 'finish');
        fs.renameSync(partial, file);
        return bytes;
      } catch (error) {
        discard();
        throw error;
      }
    },
    discard,
  };
}
