// OAuth 2.0 for a service account (RFC 7523 JWT bearer grant, as Google documents it for server-to-server
// apps): a JWT signed RS256 with the key file's private key (node:crypto), exchanged at the key file's
// token_uri for an access token, cached until shortly before it expires. Concurrent callers share one exchange.
// google-auth-library is not used: its JWT client posts to a hard-coded https://oauth2.googleapis.com/token
// whatever the key file's token_uri says, so it can reach neither a private endpoint nor a test double.

import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { categoryForStatus, isRetryableCategory, ProviderError } from '../errors.js';
import type { GoogleServiceAccountKey } from './google-api-types.js';
import type { AbortSignalLike } from '../streaming/light-abort-signal.js';

export const GOOGLE_CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Assertions live one hour, the most Google accepts. */
const ASSERTION_LIFETIME_SECONDS = 3600;
/** A token is renewed this long before it expires, so no request leaves with one about to lapse. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

const base64Url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed assertion: `header.claims.signature`, each base64url. */
export function signServiceAccountAssertion(key: GoogleServiceAccountKey, privateKey: KeyObject, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = {
    iss: key.client_email,
    scope: GOOGLE_CLOUD_PLATFORM_SCOPE,
    aud: key.token_uri,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
  };
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`;
  return `${signingInput}.${base64Url(sign('sha256', Buffer.from(signingInput), privateKey))}`;
}

function tokenError(kind: 'http' | 'network' | 'protocol' | 'timeout', statusCode?: number): ProviderError {
  if (kind === 'http') {
    // The token endpoint refuses a bad key, a revoked account or a wrong clock with 400 invalid_grant: all
    // mean the credentials do not work.
    const category = statusCode === 400 ? 'upstream_auth_failed' : categoryForStatus(statusCode!);
    return new ProviderError({ provider: 'google', kind, category, statusCode, isRetryable: isRetryableCategory(category), detail: 'the OAuth token exchange failed' });
  }
  if (kind === 'timeout') return new ProviderError({ provider: 'google', kind, category: 'upstream_timeout', isRetryable: true, detail: 'the OAuth token exchange timed out' });
  if (kind === 'network') return new ProviderError({ provider: 'google', kind, category: 'upstream_network_error', isRetryable: true, detail: 'the OAuth token exchange failed' });
  return new ProviderError({ provider: 'google', kind, category: 'upstream_bad_response', isRetryable: false, detail: 'the OAuth token answer had no token' });
}

export class ServiceAccountTokenSource {
  readonly #key: GoogleServiceAccountKey;
  readonly #privateKey: KeyObject;
  readonly #now: () => number;
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(key: GoogleServiceAccountKey, now: () => number = Date.now) {
    this.#key = key;
    try {
      this.#privateKey = createPrivateKey(key.private_key);
    } catch {
      throw new TypeError('google: the service account private_key is not a PEM private key');
    }
    this.#now = now;
  }

  /** A valid access token: the cached one, or a fresh exchange (shared by concurrent callers). */
  async accessToken(signal?: AbortSignalLike): Promise<string> {
    signal?.throwIfAborted();
    if (this.#token && this.#token.expiresAt - TOKEN_REFRESH_MARGIN_MS > this.#now()) return this.#token.value;
    this.#pending ??= this.#exchange().finally(() => {
      this.#pending = undefined;
    });
    if (!signal) return this.#pending;
    // A caller that gives up does not cancel the exchange the others wait for.
    return new Promise<string>((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      this.#pending!.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  }

  async #exchange(): Promise<string> {
    const assertion = signServiceAccountAssertion(this.#key, this.#privateKey, Math.floor(this.#now() / 1000));
    let response: Response;
    try {
      response = await fetch(this.#key.token_uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw tokenError(error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw tokenError('http', response.status);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw tokenError('protocol');
    }
    const token = body as Partial<{ access_token: unknown; expires_in: unknown }>;
    if (typeof token?.access_token !== 'string' || token.access_token === '' || typeof token.expires_in !== 'number') throw tokenError('protocol');
    this.#token = { value: token.access_token, expiresAt: this.#now() + token.expires_in * 1000 };
    return token.access_token;
  }
}

/** One token source per key file, so the speech adapter and the voice listing share a cached token. */
const sources = new Map<string, ServiceAccountTokenSource>();

export function tokenSourceFor(path: string, read: () => GoogleServiceAccountKey): ServiceAccountTokenSource {
  let source = sources.get(path);
  if (!source) {
    source = new ServiceAccountTokenSource(read());
    sources.set(path, source);
  }
  return source;
}
