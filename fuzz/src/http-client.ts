// Sends one generated request with node:http, which (unlike fetch) passes odd methods, raw paths and
// percent-encodings through untouched, and reads the whole answer. Loopback only.
import http from 'node:http';

export interface FuzzRequest {
  /** The route the generator aimed at, for the per-route summary (e.g. `POST /v1/audio/speech`). */
  route: string;
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  /** False when the path was spelled oddly (the route's response schema is then not checked). */
  canonicalPath: boolean;
  headers: Record<string, string>;
  body?: string;
  /** Send the body as Latin-1 bytes (to carry invalid UTF-8), else UTF-8. */
  bodyLatin1?: boolean;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
  /** Headers far beyond what servers accept: refusing them (431, or closing the connection) is allowed. */
  oversizedHeaders?: boolean;
  /**
   * The client closes the connection this many milliseconds after sending, unless the answer came first.
   * Never on the speech path: what a left speech request is charged depends on the audio it got.
   */
  leaveAfterMs?: number;
}

export type FuzzResponse =
  | { kind: 'answered'; status: number; headers: http.IncomingHttpHeaders; body: Buffer; truncated: boolean }
  | { kind: 'closed'; error: string }
  | { kind: 'timeout' }
  /** The client left before the answer (leaveAfterMs); nothing to check but that the service lives on. */
  | { kind: 'left' };

/**
 * After leaving, the time the service gets to meet the consequences (an answer arriving for nobody)
 * before the next input, so that a process death is blamed on the input that caused it.
 */
const AFTER_LEAVING_MS = 250;

// One connection per request: an answer that closes its connection (e.g. to a body over the limit)
// must not fail the next, unrelated input, and a shrunk counterexample must replay on its own.

export function send(baseUrl: string, request: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error('the fuzz sends to loopback only');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (response: FuzzResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(response);
    };
    const headers: Record<string, string> = { ...request.headers };
    const body = request.body === undefined ? undefined : Buffer.from(request.body, request.bodyLatin1 ? 'latin1' : 'utf8');
    if (body && !request.chunked) headers['content-length'] = String(body.length);
    if (request.chunked) headers['transfer-encoding'] = 'chunked';
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request({
        host: url.hostname, port: url.port, method: request.method, path: request.target, headers, agent: false,
      });
    } catch (error) {
      // node:http itself refused the request (e.g. a character it will not send): nothing reached the server.
      resolve({ kind: 'closed', error: `client refused: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish({ kind: 'timeout' });
    }, timeoutMs);
    let left = false;
    let answering = false;
    outgoing.on('error', (error) => {
      if (!left) finish({ kind: 'closed', error: (error as NodeJS.ErrnoException).code ?? error.message });
    });
    outgoing.on('response', (incoming) => {
      if (left) return void incoming.destroy();
      answering = true;
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => finish({ kind: 'answered', status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks), truncated: false }));
      // A response cut short (e.g. an upstream that died mid-stream) is still an answer: it is checked as one.
      incoming.on('error', () => left || finish({ kind: 'answered', status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks), truncated: true }));
      incoming.on('aborted', () => left || finish({ kind: 'answered', status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks), truncated: true }));
    });
    if (body && request.chunked) {
      // Two chunks, so the server sees a body that arrives in pieces.
      const middle = Math.floor(body.length / 2);
      outgoing.write(body.subarray(0, middle));
      outgoing.end(body.subarray(middle));
    } else {
      outgoing.end(body);
    }
    if (request.leaveAfterMs !== undefined) {
      setTimeout(() => {
        // An answer that began in time is read and checked as usual.
        if (settled || answering) return;
        left = true;
        outgoing.destroy();
        setTimeout(() => finish({ kind: 'left' }), AFTER_LEAVING_MS);
      }, request.leaveAfterMs);
    }
  });
}
