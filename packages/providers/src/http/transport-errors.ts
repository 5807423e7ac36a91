// Maps undici and socket failures to ProviderError. Only local error codes are kept: no URLs, headers or bodies.

import { ProviderError, sanitizeToken } from '../errors.js';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function mapTransportError(provider: string, error: unknown, phase: 'before-first-byte' | 'streaming'): ProviderError {
  const code = sanitizeToken((error as { code?: unknown } | null)?.code);
  const where = phase === 'streaming' ? 'mid-stream' : 'before audio';
  if (code && TIMEOUT_CODES.has(code)) {
    return new ProviderError({ provider, kind: 'timeout', category: 'upstream_timeout', isRetryable: true, detail: `${code} ${where}` });
  }
  // Network failures are retryable by nature; the registry still never retries once audio has flowed.
  return new ProviderError({
    provider,
    kind: 'network',
    category: 'upstream_network_error',
    isRetryable: true,
    detail: `${code ?? 'connection failed'} ${where}`,
  });
}
