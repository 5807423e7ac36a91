// Sends one mapped request through a pool and hands back the audio body for streaming. Non-2xx answers are
// read only up to a few KB, parsed by the provider's error parser, and turned into a ProviderError.

import type { Dispatcher } from 'undici';
import { isRetryableStatus, ProviderError, sanitizeUpstreamToken } from '../errors.js';

/** Enough for any provider's JSON error object; longer bodies are cut, never buffered whole. */
export const ERROR_BODY_LIMIT_BYTES = 4096;

/** What a provider's error parser may extract from an error body: short codes, never the text. */
export interface ParsedUpstreamError {
  upstreamCode?: string;
  /** Overrides the status-based default, e.g. OpenAI's 429 `insufficient_quota` is not worth retrying. */
  isRetryable?: boolean;
}

export type ErrorBodyParser = (status: number, bodyText: string) => ParsedUpstreamError;

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
  parseErrorBody: ErrorBodyParser;
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

/** Retry-After in seconds or as an HTTP date; also OpenAI's non-standard retry-after-ms. */
function parseRetryAfter(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const milliseconds = Number(headerValue(headers, 'retry-after-ms'));
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headerValue(headers, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function safeParse(parse: ErrorBodyParser, status: number, text: string): ParsedUpstreamError {
  try {
    return parse(status, text);
  } catch {
    return {};
  }
}

export async function sendSpeechRequest(
  pool: Dispatcher,
  request: PreparedHttpRequest,
  options: SendOptions,
): Promise<AsyncIterator<Uint8Array>> {
  const response = await pool.request({
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: request.body,
    signal: options.signal,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyIdleTimeoutMs,
  });
  const upstreamRequestId = sanitizeUpstreamToken(
    headerValue(response.headers, 'x-request-id') ?? headerValue(response.headers, 'request-id'),
    128,
  );
  const status = response.statusCode;
  if (status < 200 || status > 299) {
    const parsed = safeParse(options.parseErrorBody, status, await readLimitedText(response.body, ERROR_BODY_LIMIT_BYTES));
    throw new ProviderError({
      provider: options.provider,
      kind: 'http',
      statusCode: status,
      isRetryable: parsed.isRetryable ?? isRetryableStatus(status),
      upstreamCode: sanitizeUpstreamToken(parsed.upstreamCode),
      upstreamRequestId,
      retryAfterMs: parseRetryAfter(response.headers),
    });
  }
  const contentType = (headerValue(response.headers, 'content-type') ?? '').toLowerCase();
  if (contentType.startsWith('application/json') || contentType.startsWith('text/')) {
    response.body.destroy();
    throw new ProviderError({
      provider: options.provider,
      kind: 'protocol',
      statusCode: status,
      isRetryable: false,
      upstreamRequestId,
      detail: `content type ${sanitizeUpstreamToken(contentType.split(';')[0]?.trim()) ?? 'unexpected'}`,
    });
  }
  return (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
}
