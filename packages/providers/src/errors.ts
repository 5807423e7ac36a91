// Errors the providers package throws. Retry logic and the router read only their fields, never messages.
// Messages are built from safe parts only: upstream bodies and API keys never reach them.

/** `overloaded`: the provider refused the work for lack of capacity (the local synthesis queue is full); never retried. */
export type ProviderErrorKind = 'http' | 'timeout' | 'network' | 'protocol' | 'overloaded';

export interface ProviderErrorOptions {
  provider: string;
  kind: ProviderErrorKind;
  statusCode?: number | null;
  isRetryable: boolean;
  upstreamCode?: string;
  upstreamRequestId?: string;
  retryAfterMs?: number;
  detail?: string;
}

/** HTTP statuses that are worth another attempt: timeouts, conflicts, rate limits, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Keeps only short, slug-like identifiers; anything else from upstream is dropped rather than echoed. */
export function sanitizeUpstreamToken(value: unknown, maxLength = 64): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  return text.length <= maxLength && /^[A-Za-z0-9_.:/+-]+$/.test(text) ? text : undefined;
}

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly provider: string;
  /** Upstream HTTP status, or null when no response arrived (timeout, network). */
  readonly statusCode: number | null;
  readonly isRetryable: boolean;
  readonly kind: ProviderErrorKind;
  /** Short machine code from the upstream body (ElevenLabs detail.status, Cartesia error_code, OpenAI error.code). */
  readonly upstreamCode?: string;
  /** Upstream request id header, for support tickets. */
  readonly upstreamRequestId?: string;
  /** From Retry-After, when upstream sent one. */
  readonly retryAfterMs?: number;
  /** Attempts made before giving up; set by the registry. */
  attempts?: number;

  constructor(options: ProviderErrorOptions) {
    const status = options.statusCode ?? null;
    const parts = [`${options.provider}: ${describe(options.kind, status)}`];
    if (options.upstreamCode) parts.push(`(${options.upstreamCode})`);
    if (options.detail) parts.push(`- ${options.detail}`);
    super(parts.join(' '));
    this.provider = options.provider;
    this.statusCode = status;
    this.isRetryable = options.isRetryable;
    this.kind = options.kind;
    if (options.upstreamCode !== undefined) this.upstreamCode = options.upstreamCode;
    if (options.upstreamRequestId !== undefined) this.upstreamRequestId = options.upstreamRequestId;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

function describe(kind: ProviderErrorKind, status: number | null): string {
  switch (kind) {
    case 'http':
      return `upstream answered HTTP ${status ?? '?'}`;
    case 'timeout':
      return 'upstream did not deliver audio in time';
    case 'network':
      return 'network error talking to upstream';
    case 'protocol':
      return 'upstream response was not audio';
    case 'overloaded':
      return 'no capacity for another request';
  }
}

/** The request cannot be served as asked; the router answers 400 with `details`. Never retried. */
export class InvalidSpeechRequestError extends Error {
  override readonly name = 'InvalidSpeechRequestError';
  readonly details: string;

  constructor(details: string) {
    super(`invalid speech request: ${details}`);
    this.details = details;
  }
}

/** The provider id is unknown or has no credentials configured; the router answers 404/503. Never retried. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
  readonly provider: string;
  readonly reason: 'unknown_provider' | 'missing_api_key';

  constructor(provider: string, reason: 'unknown_provider' | 'missing_api_key') {
    super(reason === 'unknown_provider' ? `unknown provider: ${provider}` : `provider ${provider} has no API key configured`);
    this.provider = provider;
    this.reason = reason;
  }
}

/** Quotes user-supplied names inside error details safely (bounded, no control characters). */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
