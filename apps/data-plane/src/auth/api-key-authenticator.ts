// Authenticates `Authorization: Bearer pk_…` against the ledger. Results are cached briefly so the
// hot path rarely touches the database; the cache lifetime bounds how long a revoked key keeps
// working on another replica, and invalidate() makes revocation immediate in this process.
import {
  API_KEY_PREFIX, SESSION_PREFIX, findActiveApiKey, findActiveSession, hashApiKey, type ActiveApiKey, type ActiveSession, type SqlClient,
} from '@voice-router/ledger';

interface CacheEntry {
  key: ActiveApiKey | undefined;
  expiresAt: number;
}

export type Credential = { kind: 'api_key'; key: ActiveApiKey } | { kind: 'session'; session: ActiveSession };

export interface ApiKeyAuthenticator {
  /** A pk_ key or a CLI session token; undefined when missing, malformed, unknown, expired or revoked.
   *  Keys are cached briefly; sessions are not (they never reach the speech hot path). */
  identify(authorizationHeader: string): Promise<Credential | undefined>;
  invalidate(keyHash?: string): void;
}

const MAX_CACHE_ENTRIES = 50_000;

export function bearerToken(authorizationHeader: string): string | undefined {
  if (authorizationHeader.length < 8 || authorizationHeader.length > 512) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(authorizationHeader);
  return match?.[1];
}

export function createApiKeyAuthenticator(options: { sql: SqlClient; cacheTtlMs: number; now?: () => number }): ApiKeyAuthenticator {
  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<ActiveApiKey | undefined>>();
  const now = options.now ?? Date.now;

  async function lookup(keyHash: string): Promise<ActiveApiKey | undefined> {
    const key = await findActiveApiKey(options.sql, keyHash);
    if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
    cache.set(keyHash, { key, expiresAt: now() + options.cacheTtlMs });
    return key;
  }

  function authenticateToken(token: string | undefined): Promise<ActiveApiKey | undefined> {
    if (!token?.startsWith(API_KEY_PREFIX)) return Promise.resolve(undefined);
    const keyHash = hashApiKey(token);
    const cached = cache.get(keyHash);
    if (cached && cached.expiresAt > now()) return Promise.resolve(cached.key);
    // Concurrent requests with the same key share one database lookup.
    let pending = inFlight.get(keyHash);
    if (!pending) {
      pending = lookup(keyHash).finally(() => inFlight.delete(keyHash));
      inFlight.set(keyHash, pending);
    }
    return pending;
  }

  return {
    async identify(authorizationHeader) {
      const token = bearerToken(authorizationHeader);
      if (token?.startsWith(SESSION_PREFIX)) {
        const session = await findActiveSession(options.sql, token);
        // CLI sessions (`vr voices` after `vr login`) and console sessions, which only the catalog routes take (the
        // console's Voices page reads the catalog server-side with its visitor's session). Speech needs a pk_ key.
        return session && (session.kind === 'cli' || session.kind === 'console') ? { kind: 'session', session } : undefined;
      }
      const key = await authenticateToken(token);
      return key && { kind: 'api_key', key };
    },
    invalidate(keyHash) {
      if (keyHash) cache.delete(keyHash);
      else cache.clear();
    },
  };
}
