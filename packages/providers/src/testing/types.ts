// Public types of the fake upstream providers: options, behaviours and what each request recorded.

/** A provider id whose module has a test kit (e.g. 'openai'). */
export type FakeProviderKind = string;

export interface FakeProviderOptions {
  /** 0 or absent: pick a free port. */
  port?: number;
  /** The only key the fake accepts; a random one is generated when absent. */
  apiKey?: string;
  /** Delay between the response headers and the first audio byte. Default 0. */
  firstByteDelayMs?: number;
  /** Bytes per written chunk. Default 4096. */
  chunkBytes?: number;
  /** Pause between chunks; 0 writes as fast as the socket drains. Default 0. */
  chunkIntervalMs?: number;
  /**
   * Exact body size for every request (rounded down to whole MP3 frames / whole PCM samples).
   * Absent: sized like real speech, about 15 characters of input per second of audio.
   */
  totalBytes?: number;
  /** Keep a record of every request in `requests`. Default true; turn off for long benchmark runs. */
  recordRequests?: boolean;
  /** Serve HTTP/2 cleartext (prior knowledge) instead of HTTP/1.1, for SDKs that speak only HTTP/2 (AWS SDK Polly client). */
  http2?: boolean;
}

/**
 * What the fake does with the next matching requests.
 * - `normal`: authenticate, validate, stream audio.
 * - `{ status, times?, headers?, markEveryField? }`: answer with the provider's real error body for that status
 *   (`times` requests, or forever), with extra response headers (e.g. `retry-after`). `markEveryField` puts
 *   `leakMarker` into every string of the body (message, type, code, param, title, request id...) and into
 *   request-id and other headers, so tests can prove no upstream text reaches clients or logs.
 * - `{ hang: true }`: read the request and never answer.
 * - `{ dieAfterBytes }`: stream that many audio bytes, then destroy the socket.
 * - `{ firstByteDelayMs }`: answer normally, but wait this long between the headers and the first audio byte.
 * - `{ pauseAfterBytes, until }`: stream that many audio bytes, then hold the rest until `until` settles
 *   (proves a client forwards audio before the upstream body ends, with no timing involved).
 */
export type FakeBehavior =
  | 'normal'
  | { status: number; times?: number; headers?: Record<string, string>; markEveryField?: boolean }
  | { hang: true }
  | { dieAfterBytes: number }
  | { firstByteDelayMs: number }
  | { pauseAfterBytes: number; until: Promise<void> };

export type RecordedOutcome = 'pending' | 'completed' | 'aborted' | 'died' | 'error-response' | 'hung';

export interface RecordedRequest {
  kind: FakeProviderKind | 'unknown';
  method: string;
  /** Raw request target as received, including the query string, never normalised. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** Status sent, once headers went out. */
  status?: number;
  outcome: RecordedOutcome;
  audioBytesSent: number;
}

export interface FakeProviderServer {
  /** e.g. http://127.0.0.1:41234: scheme, host and port, no path. */
  origin: string;
  /**
   * The base URL a client of this fake's provider is configured with, following that provider's official SDK:
   * OpenAI's includes the version path (`<origin>/v1`), ElevenLabs' and Cartesia's are the bare origin.
   * For the combined fake of all providers this is the bare origin: use `baseUrlFor(kind)` there.
   */
  baseUrl: string;
  /** The SDK-convention base URL of one provider on this server, e.g. `<origin>/v1` for openai. */
  baseUrlFor(kind: FakeProviderKind): string;
  port: number;
  apiKey: string;
  /** Appears inside every error message the fake sends, so tests can prove bodies never leak. */
  leakMarker: string;
  requests: RecordedRequest[];
  setBehavior(behavior: FakeBehavior): void;
  /** Resolves once this request has finished (completed, aborted, died...) or the timeout passed. */
  waitForOutcome(request: RecordedRequest, timeoutMs?: number): Promise<RecordedOutcome>;
  close(): Promise<void>;
}
