// The contract between the HTTP server and each provider's fake: a request in, an error or an audio plan out.

import type { IncomingHttpHeaders } from 'node:http';
import type { FakeProviderKind } from '../types.js';
import type { LoopedAudio } from '../audio/tone-audio.js';

export interface FakeSpeechRequest {
  method: string;
  /** Raw path before `?`, never normalised, so `..%2F` tricks stay visible. */
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when the body was empty or not JSON (see `bodyIsJson`). */
  body: unknown;
  bodyIsJson: boolean;
  /** The body's bytes, for doubles of APIs that also take binary bodies (e.g. Fish Audio's msgpack). */
  rawBody?: Uint8Array;
}

export interface FakeContext {
  apiKey: string;
  leakMarker: string;
}

export interface FakeErrorReply {
  type: 'error';
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export interface FakeAudioReply {
  type: 'audio';
  audio: LoopedAudio;
  contentType: string;
  /** Used to size bodies like real speech when no fixed size is configured. */
  bytesPerSecond: number;
  characters: number;
  headers?: Record<string, string>;
  /**
   * Wraps each audio chunk the way the provider frames it on the wire (an NDJSON line of base64, an SSE event
   * of hex...); absent: raw bytes. Byte counts (`dieAfterBytes`, `pauseAfterBytes`) still count audio bytes.
   */
  frame?: (audio: Buffer) => string;
  /** Written after the last framed chunk (e.g. a final SSE event); never written when the stream dies. */
  trailer?: string;
}

/** A successful JSON answer (voice listings). */
export interface FakeJsonReply {
  type: 'json';
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeProviderHandler {
  kind: FakeProviderKind;
  /** Whether a path belongs to this provider; the combined server dispatches on it. */
  ownsPath(pathname: string): boolean;
  /** Route, authenticate and validate like the real service. */
  handle(
    request: FakeSpeechRequest,
    context: FakeContext,
  ): FakeErrorReply | FakeAudioReply | FakeJsonReply | Promise<FakeErrorReply | FakeAudioReply | FakeJsonReply>;
  /** Encodes the audio this provider serves by default, so the first request is not slowed by the encoder. */
  prepareAudio(): void;
  /** The provider's real error body for an arbitrary status (used by the `{ status }` behaviour). */
  errorForStatus(status: number, request: FakeSpeechRequest, context: FakeContext): FakeErrorReply;
  /**
   * The provider's error shape with `context.leakMarker` in every string field and in its request-id and
   * other headers (the `{ status, markEveryField }` behaviour).
   */
  markedError(status: number, context: FakeContext): FakeErrorReply;
  /** The path a client's base URL ends with for this provider (e.g. '/v1' for OpenAI's SDK), or ''. */
  basePath: string;
}

export function jsonReply(body: unknown, headers?: Record<string, string>): FakeJsonReply {
  return { type: 'json', body, headers };
}

export function jsonError(status: number, body: unknown, headers?: Record<string, string>): FakeErrorReply {
  return { type: 'error', status, contentType: 'application/json', body: JSON.stringify(body), headers };
}

/** Characters as the providers count them: Unicode code points. */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Headers every marked error carries besides the provider's own request-id header. */
export function markedHeaders(marker: string, requestIdHeader: string): Record<string, string> {
  return { [requestIdHeader]: marker, 'x-debug-trace': marker, 'retry-after': marker, 'www-authenticate': `Bearer realm="${marker}"` };
}

/** Mimics how real services echo a rejected key: first characters and last four, the middle masked. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 3)}${'*'.repeat(Math.min(20, key.length - 7))}${key.slice(-4)}`;
}
