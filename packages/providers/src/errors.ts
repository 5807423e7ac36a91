// Errors the providers package throws. Retry logic, the breaker and the router read only their fields, never
// messages. Nothing taken from an upstream response (body, codes, headers) is kept: parsers read upstream
// codes only to choose a category from the closed set below, and messages are written here.

/** `overloaded`: the provider refused the work for lack of capacity (the local synthesis queue is full); never retried. */
export type ProviderErrorKind = 'http' | 'timeout' | 'network' | 'protocol' | 'overloaded';

/**
 * Why an upstream failed, from a closed set the router owns. It is what a client sees in the `code` field of a
 * 502/504 body, so it must never carry upstream text.
 */
export const UPSTREAM_FAILURE_CATEGORIES = [
  'upstream_server_error',
  'upstream_rate_limited',
  'upstream_auth_failed',
  'upstream_quota_exceeded',
  'upstream_rejected_request',
  'upstream_bad_response',
  'upstream_network_error',
  'upstream_timeout',
] as const;

export type UpstreamFailureCategory = (typeof UPSTREAM_FAILURE_CATEGORIES)[number];

/** Categories worth another attempt (before the first audio byte only). */
const RETRYABLE_CATEGORIES: ReadonlySet<UpstreamFailureCategory> = new Set([
  'upstream_server_error',
  'upstream_rate_limited',
  'upstream_network_error',
  'upstream_timeout',
]);

export function isRetryableCategory(category: UpstreamFailureCategory): boolean {
  return RETRYABLE_CATEGORIES.has(category);
}

/**
 * A field of the router's speech request, from the router's own vocabulary, that a provider refused.
 * `provider_options.<key>` only ever names a key the provider's adapter knows.
 */
export type RequestField =
  | 'voice'
  | 'input'
  | 'model'
  | 'speed'
  | 'instructions'
  | 'response_format'
  | 'provider_options'
  | `provider_options.${string}`;

export interface ProviderErrorOptions {
  provider: string;
  kind: ProviderErrorKind;
  category: UpstreamFailureCategory;
  statusCode?: number | null;
  isRetryable: boolean;
  /** From Retry-After (or retry-after-ms), already converted to a number. */
  retryAfterMs?: number;
  /** Written by the router (transport error codes, deadlines); never upstream text. */
  detail?: string;
}

/** HTTP statuses that are worth another attempt: timeouts, conflicts, rate limits, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The category an upstream HTTP status means when the provider's own codes say nothing more precise. */
export function categoryForStatus(status: number): UpstreamFailureCategory {
  if (status === 401 || status === 403) return 'upstream_auth_failed';
  if (status === 402) return 'upstream_quota_exceeded';
  if (status === 429) return 'upstream_rate_limited';
  if (status >= 500 || status === 408 || status === 409) return 'upstream_server_error';
  if (status >= 200 && status < 300) return 'upstream_bad_response';
  // Any other 4xx the provider's parser did not pin on the client: the request the router built (or its
  // configuration, e.g. a base URL without the version path) is what upstream refused.
  return 'upstream_rejected_request';
}

/** Keeps only short, slug-like identifiers of local origin (socket error codes); anything else is dropped. */
export function sanitizeToken(value: unknown, maxLength = 64): string | undefined {
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
  readonly category: UpstreamFailureCategory;
  /** From Retry-After, when upstream sent one; the registry waits at least this long before retrying. */
  readonly retryAfterMs?: number;
  /** Attempts made before giving up; set by the registry. */
  attempts?: number;

  constructor(options: ProviderErrorOptions) {
    const status = options.statusCode ?? null;
    const parts = [`${options.provider}: ${describe(options.kind, status)} (${options.category})`];
    if (options.detail) parts.push(`- ${options.detail}`);
    super(parts.join(' '));
    this.provider = options.provider;
    this.statusCode = status;
    this.isRetryable = options.isRetryable;
    this.kind = options.kind;
    this.category = options.category;
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
  override readonly name: string = 'InvalidSpeechRequestError';
  readonly details: string;

  constructor(details: string) {
    super(`invalid speech request: ${details}`);
    this.details = details;
  }
}

/**
 * Upstream refused the request because of what the client asked for (an unknown voice, a bad option, input
 * too long for the model). Answered as 400 invalid_body, never retried, never charged, and it does not count
 * towards the circuit breaker: the provider is healthy. `details` is written here from `field` alone.
 */
export class UpstreamInvalidRequestError extends InvalidSpeechRequestError {
  override readonly name = 'UpstreamInvalidRequestError';
  readonly provider: string;
  readonly statusCode: number;
  readonly field?: RequestField;

  constructor(provider: string, statusCode: number, field?: RequestField) {
    super(
      field
        ? `${provider} refused the value of ${field}`
        : `${provider} refused the request; check model, voice, input and provider_options`,
    );
    this.provider = provider;
    this.statusCode = statusCode;
    if (field !== undefined) this.field = field;
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

export type CircuitRejection = { state: 'open'; retryAfterMs: number } | { state: 'half_open' };

/** The provider's circuit breaker refused the request; the router answers 503 provider_unavailable. */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  readonly provider: string;
  readonly rejection: CircuitRejection;

  constructor(provider: string, rejection: CircuitRejection) {
    super(`${provider}: circuit ${rejection.state === 'open' ? 'open' : 'half-open, a probe is in flight'}`);
    this.provider = provider;
    this.rejection = rejection;
  }
}

/** Quotes user-supplied names inside error details safely (bounded, no control characters). */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
