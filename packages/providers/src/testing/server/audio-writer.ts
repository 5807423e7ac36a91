// Streams a looped audio buffer as a chunked response, with pacing, socket backpressure and a kill switch.
// Chunks are views into the pre-built buffer: serving audio copies nothing.

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface AudioPacing {
  firstByteDelayMs: number;
  chunkBytes: number;
  chunkIntervalMs: number;
  /** Destroy the socket once this many bytes went out. */
  dieAfterBytes?: number;
  /** Stop after this many body bytes until `until` settles (lets a test prove its client streams). */
  pause?: { afterBytes: number; until: Promise<void> };
  /** Written once, right after the first-byte delay (a streaming WAV header). */
  header?: Buffer;
  /** Wraps every chunk (header included) in the provider's text framing; absent: raw bytes. */
  frame?: (audio: Buffer) => string;
  /** Written once after the last chunk of a completed stream (the end of a JSON document, a final event). */
  trailer?: Buffer | string;
}

export type StreamEnd = 'completed' | 'aborted' | 'died';

function waitForDrainOrClose(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

function waitForClose(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => (response.destroyed ? resolve() : response.once('close', () => resolve())));
}

/** `onProgress` receives the running byte count so the request record stays current. */
export async function streamLoopedAudio(
  response: ServerResponse,
  source: Buffer,
  totalBytes: number,
  pacing: AudioPacing,
  onProgress: (bytesSent: number) => void,
  onDie: () => void,
): Promise<StreamEnd> {
  const isGone = () => response.destroyed || response.writableEnded;
  if (pacing.firstByteDelayMs > 0) await sleep(pacing.firstByteDelayMs);
  const limit = pacing.dieAfterBytes === undefined ? totalBytes : Math.min(totalBytes, pacing.dieAfterBytes);
  const wrap = (audio: Buffer) => (pacing.frame ? pacing.frame(audio) : audio);
  if (pacing.header && !isGone() && !response.write(wrap(pacing.header))) await waitForDrainOrClose(response);
  let sent = 0;
  let position = 0;
  let paused = false;
  while (sent < limit) {
    if (isGone()) return 'aborted';
    if (pacing.pause && !paused && sent >= pacing.pause.afterBytes) {
      paused = true;
      await Promise.race([pacing.pause.until, waitForClose(response)]);
      continue;
    }
    const untilPause = pacing.pause && !paused ? Math.max(1, pacing.pause.afterBytes - sent) : Number.POSITIVE_INFINITY;
    const size = Math.min(pacing.chunkBytes, limit - sent, source.length - position, untilPause);
    const writable = response.write(wrap(source.subarray(position, position + size)));
    sent += size;
    position = (position + size) % source.length;
    onProgress(sent);
    if (!writable) await waitForDrainOrClose(response);
    if (pacing.chunkIntervalMs > 0 && sent < limit) await sleep(pacing.chunkIntervalMs);
  }
  if (isGone()) return 'aborted';
  if (pacing.dieAfterBytes !== undefined && pacing.dieAfterBytes < totalBytes) {
    // Let the written bytes reach the client before the connection drops, as a real crash mid-stream would.
    await new Promise<void>((resolve) => response.socket?.write('', () => resolve()) ?? resolve());
    onDie();
    response.socket?.destroy();
    return 'died';
  }
  await new Promise<void>((resolve) => (pacing.trailer === undefined ? response.end(resolve) : response.end(pacing.trailer, resolve)));
  return 'completed';
}
