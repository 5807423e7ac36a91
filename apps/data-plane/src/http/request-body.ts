// Reads a request body with a hard size limit. A declared Content-Length over the limit is refused
// before a single byte is read; a chunked body is cut off as soon as it passes the limit.
import type { HttpResponse } from '../uws.js';
import type { AbortSignalLike } from '@voice-router/providers';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Must be called synchronously inside the route handler (before any await): uWS drops data otherwise. */
export function readBody(
  res: HttpResponse, contentLengthHeader: string, limit: number, isAborted: () => boolean, abortSignal?: AbortSignalLike,
): Promise<BodyResult> {
  const declared = contentLengthHeader === '' ? undefined : Number(contentLengthHeader);
  if (declared !== undefined && (!Number.isFinite(declared) || declared > limit)) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // The data handler stays with the response, and the abort listener with the request's signal, until
    // the response ends (a stream's whole life). Once the body is read neither may keep it: the chunks
    // are dropped, and so is `resolve`, whose promise holds the body as its value. (The listener itself
    // stays: removing it costs more per request than the little it keeps then.)
    let settle: ((result: BodyResult) => void) | undefined = resolve;
    const finish = (result: BodyResult) => {
      done = true;
      chunks = [];
      settle?.(result);
      settle = undefined;
    };
    // A client that leaves mid-body sends no more data: without this the read (and whatever waits on it,
    // such as a concurrency slot taken meanwhile) would hang until shutdown.
    const onAbort = () => {
      if (!done) finish({ ok: false, reason: 'aborted' });
    };
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    res.onData((chunk, isLast) => {
      if (done) return;
      if (isAborted()) return finish({ ok: false, reason: 'aborted' });
      size += chunk.byteLength;
      if (size > limit) return finish({ ok: false, reason: 'too_large' });
      // uWS reuses the chunk's memory after this callback returns, so it must be copied (an ArrayBuffer
      // from uWS, a Uint8Array from the node:http adapter).
      chunks.push(chunk instanceof ArrayBuffer ? Buffer.from(chunk.slice(0)) : Buffer.from(chunk));
      if (isLast) finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    });
  });
}
