// Sends one mapped request through a pool and hands back the audio body for streaming. Non-2xx answers are
// read only up to a few KB, classified by the provider's classifier, and turned into an error that keeps a
// category and the status: no upstream text, code or header value survives this function.

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
  signal: AbortSignal;
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

function headerValue(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readLimitedText(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk.subarray(0, limit - size));
      size += Math.min(chunk.length, limit - size);
      if (size >= limit) break; // leaving the loop destroys the rest of the body
    }
  } catch {
    // A broken error body still leaves the status, which is what matters.
  } finally {
    if (!body.destroyed) body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Retry-After in seconds or as an HTTP date; also OpenAI's non-standard retry-after-ms. Only a number is kept. */
export function parseRetryAfter(headers: Dispatcher.ResponseData['headers'], now = Date.now()): number | undefined {
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

/**
 * Whether a response body has ended with nothing left unread. `readableEnded` turns true only once 'end'
 * is emitted, a tick after the last chunk is read; the stream's state knows as soon as the end of the body
 * was parsed, which is usually in the same socket read as the last chunk.
 */
function bodyExhausted(body: Dispatcher.ResponseData['body']): boolean {
  if (body.readableEnded) return true;
  const state = (body as unknown as { _readableState?: { ended?: boolean } })._readableState;
  return state?.ended === true && body.readableLength === 0;
}

export async function sendSpeechRequest(
  pool: Dispatcher,
  request: PreparedHttpRequest,
  options: SendOptions,
): Promise<AsyncIterator<Uint8Array> & KnowsItsEnd> {
  const response = await pool.request({
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: request.body,
    signal: options.signal,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyIdleTimeoutMs,
    highWaterMark: UPSTREAM_READ_AHEAD_BYTES,
  });
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    const header = (name: string) => headerValue(response.headers, name);
    const classification = safeClassify(options.classifyError, status, await readLimitedText(response.body, ERROR_BODY_LIMIT_BYTES), header);
    throw upstreamHttpError(options.provider, status, classification, parseRetryAfter(response.headers));
  }
  const contentType = (headerValue(response.headers, 'content-type') ?? '').toLowerCase();
  if (options.successJsonIsError && contentType.startsWith('application/json')) {
    // Classified by the provider's codes; a JSON answer it does not recognise is a success without audio.
    const classification = safeClassify(options.classifyError, status, await readLimitedText(response.body, ERROR_BODY_LIMIT_BYTES));
    throw upstreamHttpError(options.provider, status, classification, undefined);
  }
  if (!options.textBody && (contentType.startsWith('application/json') || contentType.startsWith('text/'))) {
    response.body.destroy();
    throw new ProviderError({
      provider: options.provider,
      kind: 'protocol',
      category: 'upstream_bad_response',
      statusCode: status,
      isRetryable: false,
      detail: 'a success answer carried text instead of audio',
    });
  }
  const body = response.body;
  const audio = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]() as AsyncIterator<Uint8Array> & KnowsItsEnd;
  audio.exhausted = () => bodyExhausted(body);
  return audio;
}
