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
  let sent = 0;
  let position = 0;
  while (sent < limit) {
    if (isGone()) return 'aborted';
    const size = Math.min(pacing.chunkBytes, limit - sent, source.length - position);
    const writable = response.write(source.subarray(position, position + size));
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
  await new Promise<void>((resolve) => response.end(resolve));
  return 'completed';
}
