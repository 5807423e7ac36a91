// Sends one mapped request through a pool and hands back the audio body for streaming. Non-2xx answers are
// read only up to a few KB, classified by the provider's classifier, and turned into an error that keeps a
// category and the status: no upstream text, code or header value survives this function.

import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import {
  categoryForStatus,
  isRetryableCategory,
  ProviderError,
  UpstreamInvalidRequestError,
  type RequestField,
  type UpstreamFailureCategory,
} from '../errors.js';
import type { KnowsItsEnd } from '../types.js';
import type { AbortSignalLike } from '../streaming/light-abort-signal.js';

/** Enough for any provider's JSON error object; longer bodies are cut, never buffered whole. */
export const ERROR_BODY_LIMIT_BYTES = 4096;

/**
 * How much of an upstream body is read ahead of a client that is slower than the provider before the
 * upstream socket is paused (undici's default is 64 KiB). Audio arrives in 4–16 KiB chunks; 16 KiB keeps
 * a chunk or two in hand for the next write while a thousand slow listeners hold ~16 MiB instead of ~64.
 */
export const UPSTREAM_READ_AHEAD_BYTES = 16 * 1024;

/**
 * What a provider's classifier concludes from an error answer. It may read the upstream's machine codes to
 * decide, but it returns only values from the router's own vocabulary.
 */
export type UpstreamErrorClassification =
  /** The client's request was refused (unknown voice, bad option, input too long): a 400 for the client. */
  | { category: 'invalid_request'; field?: RequestField }
  /** An upstream failure; `isRetryable` overrides the category's default (e.g. a 429 that will not clear). */
  | { category?: UpstreamFailureCategory; isRetryable?: boolean };

/** `header` reads one response header (lower-case name), for providers that name the error there (AWS `x-amzn-errortype`). */
export type UpstreamErrorClassifier = (status: number, bodyText: string, header?: (name: string) => string | undefined) => UpstreamErrorClassification;

export interface PreparedHttpRequest {
  method: 'POST';
  /** Full path on the origin, base path included. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions {
  provider: string;
  signal: AbortSignalLike;
  /** undici's own limit on waiting for headers; the attempt deadline normally fires first. */
  headersTimeoutMs: number;
  /** Longest silence between body chunks once audio flows. */
  bodyIdleTimeoutMs: number;
  classifyError: UpstreamErrorClassifier;
  /** The audio arrives inside text (SSE, NDJSON): a text content type is then expected, not an error. */
  textBody?: boolean;
  /** A JSON success answer is an error envelope (see HttpSpeechRequest.successJsonIsError). */
  successJsonIsError?: boolean;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One upstream response, received through undici's dispatch handler (no stream objects in between:
 * `request()` with its Readable body, read through the stream's async iterator, cost 15–25 µs more CPU
 * per short request in a client-only measurement, against ~55 µs for the whole exchange this way): the
 * status and headers once they arrive (`started`), then the body as an async iterator. The connection is
 * paused while UPSTREAM_READ_AHEAD_BYTES or more wait unread, and resumed when the consumer takes them.
 * Aborting `signal`, or leaving the iteration early (`return()`), aborts the request (undici then closes
 * the connection); an abort before the request reached a connection is applied when it does.
 */
class UpstreamResponse implements Dispatcher.DispatchHandler, AsyncIterator<Uint8Array>, KnowsItsEnd {
  statusCode = 0;
  headers: IncomingHttpHeaders = {};
  readonly started: Promise<void>;
  #resolveStarted!: () => void;
  #rejectStarted!: (error: unknown) => void;
  #controller: Dispatcher.DispatchController | undefined;
  /** A cancellation that came before undici handed over the controller. */
  #pendingAbort: Error | undefined;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #ended = false;
  #failed = false;
  /** The consumer left (`return()`): further calls to next() report the end. */
  #returned = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  readonly #onAbort = () => this.#cancel(this.signal.reason as Error);

  constructor(private readonly signal: AbortSignalLike) {
    this.started = new Promise<void>((resolve, reject) => {
      this.#resolveStarted = resolve;
      this.#rejectStarted = reject;
    });
    if (signal.aborted) this.#cancel(signal.reason as Error);
    else signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort) controller.abort(this.#pendingAbort);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // `headers` is undici's parsed copy (strings). The raw ones it keeps on the controller are views into
    // the socket read that carried them, and the controller lives as long as the stream: letting go of
    // them frees that read's whole buffer (~16 KiB a stream) once its audio has gone out.
    controller.rawHeaders = null;
    // 1xx answers (100 Continue, 103 Early Hints) precede the real one.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
    this.#resolveStarted();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#failed) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.byteLength;
    if (this.#buffered >= UPSTREAM_READ_AHEAD_BYTES) controller.pause();
    this.#wakeConsumer();
  }

  onResponseEnd(): void {
    if (this.#failed) return;
    this.#ended = true;
    this.signal.removeEventListener('abort', this.#onAbort);
    this.#wakeConsumer();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#fail(error);
  }

  /** Ends the exchange with `reason` (the request is aborted unless the body had already ended). */
  #cancel(reason: Error): void {
    if (this.#ended || this.#failed) return;
    this.#fail(reason);
    this.#chunks = [];
    this.#buffered = 0;
    if (this.#controller) this.#controller.abort(reason);
    else this.#pendingAbort = reason;
  }

  /** No chunk will follow the ones handed out: the body has ended and nothing of it waits unread. */
  exhausted(): boolean {
    return this.#ended && this.#chunks.length === 0;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) {
        this.#buffered -= chunk.byteLength;
        // Resuming may deliver more data at once (re-entering onResponseData), after this chunk was taken.
        if (this.#buffered < UPSTREAM_READ_AHEAD_BYTES && this.#controller?.paused) this.#controller.resume();
        return { done: false, value: chunk };
      }
      if (this.#returned || this.#ended) return { done: true, value: undefined };
      if (this.#failed) throw this.#error;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    this.#returned = true;
    this.#cancel(new DOMException('upstream body left unread', 'AbortError') as Error);
    return { done: true, value: undefined };
  }

  #fail(error: unknown): void {
    if (this.#ended || this.#failed) return;
    this.#failed = true;
    this.#error = error;
    this.signal.removeEventListener('abort', this.#onAbort);
    this.#rejectStarted(error);
    this.#wakeConsumer();
  }

  #wakeConsumer(): void {
    const wake = this.#wake;
    if (wake) {
      this.#wake = undefined;
      wake();
    }
  }
}

async function readLimitedText(body: UpstreamResponse, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const result = await body.next();
      if (result.done) break;
      const chunk = Buffer.from(result.value.buffer, result.value.byteOffset, Math.min(result.value.byteLength, limit - size));
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= limit) break;
    }
  } catch {
    // A broken error body still leaves the status, which is what matters.
  } finally {
    // The rest of a long error body is not read: the connection is closed instead.
    await body.return();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Retry-After in seconds or as an HTTP date; also OpenAI's non-standard retry-after-ms. Only a number is kept. */
export function parseRetryAfter(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const rawMilliseconds = headerValue(headers, 'retry-after-ms');
  const milliseconds = rawMilliseconds === undefined || rawMilliseconds.trim() === '' ? Number.NaN : Number(rawMilliseconds);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function safeClassify(
  classify: UpstreamErrorClassifier,
  status: number,
  text: string,
  header?: (name: string) => string | undefined,
): UpstreamErrorClassification {
  try {
    return classify(status, text, header);
  } catch {
    return {};
  }
}

/** Builds the error for a non-2xx answer: a client refusal, or a categorised upstream failure. */
export function upstreamHttpError(
  provider: string,
  status: number,
  classification: UpstreamErrorClassification,
  retryAfterMs: number | undefined,
): ProviderError | UpstreamInvalidRequestError {
  if (classification.category === 'invalid_request') {
    return new UpstreamInvalidRequestError(provider, status, 'field' in classification ? classification.field : undefined);
  }
  const category = classification.category ?? categoryForStatus(status);
  const override = 'isRetryable' in classification ? classification.isRetryable : undefined;
  return new ProviderError({
    provider,
    kind: 'http',
    category,
    statusCode: status,
    isRetryable: override ?? isRetryableCategory(category),
    retryAfterMs,
  });
}

export async function sendSpeechRequest(
  pool: Dispatcher,
  request: PreparedHttpRequest,
  options: SendOptions,
): Promise<AsyncIterator<Uint8Array> & KnowsItsEnd> {
  const response = new UpstreamResponse(options.signal);
  pool.dispatch({
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: request.body,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyIdleTimeoutMs,
  }, response);
  await response.started;
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    const header = (name: string) => headerValue(response.headers, name);
    const classification = safeClassify(options.classifyError, status, await readLimitedText(response, ERROR_BODY_LIMIT_BYTES), header);
    throw upstreamHttpError(options.provider, status, classification, parseRetryAfter(response.headers));
  }
  const contentType = (headerValue(response.headers, 'content-type') ?? '').toLowerCase();
  if (options.successJsonIsError && contentType.startsWith('application/json')) {
    // Classified by the provider's codes; a JSON answer it does not recognise is a success without audio.
    const classification = safeClassify(options.classifyError, status, await readLimitedText(response, ERROR_BODY_LIMIT_BYTES));
    throw upstreamHttpError(options.provider, status, classification, undefined);
  }
  if (!options.textBody && (contentType.startsWith('application/json') || contentType.startsWith('text/'))) {
    await response.return();
    throw new ProviderError({
      provider: options.provider,
      kind: 'protocol',
      category: 'upstream_bad_response',
      statusCode: status,
      isRetryable: false,
      detail: 'a success answer carried text instead of audio',
    });
  }
  return response;
}
