// Reads a request body with a hard size limit. A declared Content-Length over the limit is refused
// before a single byte is read; a chunked body is cut off as soon as it passes the limit.
import type { HttpResponse } from '../uws.js';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Must be called synchronously inside the route handler (before any await): uWS drops data otherwise. */
export function readBody(
  res: HttpResponse, contentLengthHeader: string, limit: number, isAborted: () => boolean, abortSignal?: AbortSignal,
): Promise<BodyResult> {
  const declared = contentLengthHeader === '' ? undefined : Number(contentLengthHeader);
  if (declared !== undefined && (!Number.isFinite(declared) || declared > limit)) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // A client that leaves mid-body sends no more data: without this the read (and whatever waits on it,
    // such as a concurrency slot taken meanwhile) would hang until shutdown.
    abortSignal?.addEventListener('abort', () => {
      if (done) return;
      done = true;
      resolve({ ok: false, reason: 'aborted' });
    }, { once: true });
    res.onData((chunk, isLast) => {
      if (done) return;
      if (isAborted()) {
        done = true;
        resolve({ ok: false, reason: 'aborted' });
        return;
      }
      size += chunk.byteLength;
      if (size > limit) {
        done = true;
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      // uWS reuses the chunk's memory after this callback returns, so it must be copied (an ArrayBuffer
      // from uWS, a Uint8Array from the node:http adapter).
      chunks.push(chunk instanceof ArrayBuffer ? Buffer.from(chunk.slice(0)) : Buffer.from(chunk));
      if (isLast) {
        done = true;
        resolve({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
      }
    });
  });
}
