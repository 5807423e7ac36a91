// The node:http server behind every fake: records requests, applies the current behaviour, then lets the
// provider's handler answer (error body or streamed audio).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { alignedBodyLength, speechLikeByteCount } from '../audio/tone-audio.js';
import type {
  FakeBehavior,
  FakeProviderKind,
  FakeProviderOptions,
  FakeProviderServer,
  RecordedOutcome,
  RecordedRequest,
} from '../types.js';
import type { FakeAudioReply, FakeContext, FakeErrorReply, FakeProviderHandler, FakeSpeechRequest } from './fake-handler.js';
import { streamLoopedAudio } from './audio-writer.js';

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 4096;

async function readBody(request: IncomingMessage): Promise<{ text: string; raw: Uint8Array; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { text: '', raw: new Uint8Array(0), tooLarge: true };
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  return { text: raw.toString('utf8'), raw, tooLarge: false };
}

function parseBody(text: string): { body: unknown; bodyIsJson: boolean } {
  if (text === '') return { body: undefined, bodyIsJson: false };
  try {
    return { body: JSON.parse(text) as unknown, bodyIsJson: true };
  } catch {
    return { body: text, bodyIsJson: false };
  }
}

/** `hung` is still in flight: it ends when the client gives up. */
function isFinished(outcome: RecordedOutcome): boolean {
  return outcome !== 'pending' && outcome !== 'hung';
}

export async function startFakeServer(
  handlers: FakeProviderHandler[],
  options: FakeProviderOptions = {},
): Promise<FakeProviderServer> {
  const context: FakeContext = {
    apiKey: options.apiKey ?? `fake-key-${randomBytes(12).toString('hex')}`,
    leakMarker: `upstream-body-marker-${randomBytes(6).toString('hex')}`,
  };
  const requests: RecordedRequest[] = [];
  const finishWaiters = new Map<RecordedRequest, Array<() => void>>();
  let behavior: FakeBehavior = 'normal';
  let behaviorUsesLeft = Number.POSITIVE_INFINITY;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  for (const handler of handlers) handler.prepareAudio();

  const finish = (record: RecordedRequest, outcome: RecordedOutcome) => {
    if (isFinished(record.outcome)) return;
    record.outcome = outcome;
    for (const wake of finishWaiters.get(record) ?? []) wake();
    finishWaiters.delete(record);
  };

  /** The behaviour for one request; `{ status, times }` counts itself down and then reverts to normal. */
  const takeBehavior = (): FakeBehavior => {
    const current = behavior;
    if (typeof current === 'object' && 'status' in current) {
      behaviorUsesLeft -= 1;
      if (behaviorUsesLeft <= 0) behavior = 'normal';
    }
    return current;
  };

  const sendError = (response: ServerResponse, record: RecordedRequest, reply: FakeErrorReply) => {
    record.status = reply.status;
    response.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
    response.end(reply.body);
    finish(record, 'error-response');
  };

  const sendAudio = async (
    response: ServerResponse,
    record: RecordedRequest,
    reply: FakeAudioReply,
    dieAfterBytes: number | undefined,
    firstByteDelayMs: number,
    pause: { afterBytes: number; until: Promise<void> } | undefined,
    onDie: () => void,
  ) => {
    const wanted = options.totalBytes ?? speechLikeByteCount(reply.characters, reply.bytesPerSecond);
    const totalBytes = alignedBodyLength(reply.audio, wanted);
    record.status = 200;
    // No content-length: the body goes out with Transfer-Encoding: chunked, as the real services stream it.
    response.writeHead(200, { 'content-type': reply.contentType, ...reply.headers });
    response.flushHeaders();
    const end = await streamLoopedAudio(
      response,
      reply.audio.buffer,
      totalBytes,
      { firstByteDelayMs, chunkBytes, chunkIntervalMs: options.chunkIntervalMs ?? 0, dieAfterBytes, pause, header: reply.audio.header, frame: reply.frame, trailer: reply.trailer ?? reply.audio.trailer },
      (bytesSent) => {
        record.audioBytesSent = bytesSent;
      },
      onDie,
    );
    finish(record, end);
  };

  const handleRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const rawPath = request.url ?? '/';
    const queryStart = rawPath.indexOf('?');
    const pathname = queryStart === -1 ? rawPath : rawPath.slice(0, queryStart);
    const handler = handlers.find((candidate) => candidate.ownsPath(pathname)) ?? (handlers.length === 1 ? handlers[0] : undefined);
    const record: RecordedRequest = {
      kind: handler?.kind ?? 'unknown',
      method: request.method ?? 'GET',
      path: rawPath,
      headers: { ...request.headers },
      body: undefined,
      outcome: 'pending',
      audioBytesSent: 0,
    };
    if (options.recordRequests !== false) requests.push(record);
    let dying = false;
    // 'close' also follows a normal end, and it may run before the streaming code resumes: classify here.
    response.on('close', () => finish(record, response.writableFinished ? 'completed' : dying ? 'died' : 'aborted'));
    const { text, raw, tooLarge } = await readBody(request);
    const { body, bodyIsJson } = parseBody(text);
    record.body = body;
    if (tooLarge) return sendError(response, record, { type: 'error', status: 413, contentType: 'text/plain', body: 'Payload Too Large' });
    if (!handler) return sendError(response, record, { type: 'error', status: 404, contentType: 'application/json', body: '{"error":"Not Found"}' });
    const speechRequest: FakeSpeechRequest = {
      method: record.method,
      pathname,
      query: new URLSearchParams(queryStart === -1 ? '' : rawPath.slice(queryStart + 1)),
      headers: request.headers,
      body,
      bodyIsJson,
      rawBody: raw,
    };
    const current = takeBehavior();
    if (typeof current === 'object' && 'hang' in current) {
      record.outcome = 'hung';
      return;
    }
    if (typeof current === 'object' && 'status' in current) {
      const reply = current.markEveryField
        ? handler.markedError(current.status, context)
        : handler.errorForStatus(current.status, speechRequest, context);
      return sendError(response, record, { ...reply, headers: { ...reply.headers, ...current.headers } });
    }
    const reply = await handler.handle(speechRequest, context);
    if (reply.type === 'error') return sendError(response, record, reply);
    if (reply.type === 'json') {
      record.status = 200;
      response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(reply.body));
      return finish(record, 'completed');
    }
    const dieAfterBytes = typeof current === 'object' && 'dieAfterBytes' in current ? current.dieAfterBytes : undefined;
    const firstByteDelayMs = typeof current === 'object' && 'firstByteDelayMs' in current ? current.firstByteDelayMs : (options.firstByteDelayMs ?? 0);
    const pause = typeof current === 'object' && 'pauseAfterBytes' in current ? { afterBytes: current.pauseAfterBytes, until: current.until } : undefined;
    await sendAudio(response, record, reply, dieAfterBytes, firstByteDelayMs, pause, () => {
      dying = true;
    });
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handleRequest(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  };
  // HTTP/2 cleartext (prior knowledge) for SDKs that speak only HTTP/2, through node's compatibility API.
  const sessions = new Set<Http2Session>();
  const http2Server = options.http2 ? createHttp2Server(listener as never) : undefined;
  http2Server?.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const server = http2Server ?? createServer({ keepAlive: true }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const baseUrlFor = (kind: FakeProviderKind) => {
    const handler = handlers.find((candidate) => candidate.kind === kind);
    if (!handler) throw new Error(`this fake does not serve ${kind}`);
    return origin + handler.basePath;
  };

  return {
    origin,
    // One provider: its SDK-convention base URL. Several: only the origin is common to all of them.
    baseUrl: handlers.length === 1 ? baseUrlFor(handlers[0]!.kind) : origin,
    baseUrlFor,
    port,
    apiKey: context.apiKey,
    leakMarker: context.leakMarker,
    requests,
    setBehavior(next) {
      behavior = next;
      behaviorUsesLeft = typeof next === 'object' && 'status' in next ? (next.times ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    },
    waitForOutcome(record, timeoutMs = 5000) {
      if (isFinished(record.outcome)) return Promise.resolve(record.outcome);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(record.outcome), timeoutMs);
        const waiters = finishWaiters.get(record) ?? [];
        waiters.push(() => {
          clearTimeout(timer);
          resolve(record.outcome);
        });
        finishWaiters.set(record, waiters);
      });
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (http2Server) for (const session of sessions) session.destroy();
      else (server as ReturnType<typeof createServer>).closeAllConnections();
      await closed;
    },
  };
}
