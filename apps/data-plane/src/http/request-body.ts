// Reads a request body with a hard size limit. A declared Content-Length over the limit is refused
// before a single byte is read; a chunked body is cut off as soon as it passes the limit.
import type { HttpResponse } from '../uws.js';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Must be called synchronously inside the uWS handler (before any await), or data is lost. */
export function readBody(res: HttpResponse, contentLengthHeader: string, limit: number, isAborted: () => boolean): Promise<BodyResult> {
  const declared = contentLengthHeader === '' ? undefined : Number(contentLengthHeader);
  if (declared !== undefined && (!Number.isFinite(declared) || declared > limit)) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
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
      // uWS reuses the chunk's memory after this callback returns, so it must be copied.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        done = true;
        resolve({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
      }
    });
  });
}
