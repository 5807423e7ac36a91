// Authenticates `Authorization: Bearer pk_…` against the ledger. Results are cached for at most
// `cacheTtlMs` (AUTH_CACHE_TTL_MS) from the moment the lookup that found them was sent, which bounds how
// long a revoked key keeps working on another replica; invalidate() makes revocation immediate in this
// process. Keys in use are looked up again ahead of their expiry, all of them in one statement every
// half lifetime, so a key that is used steadily never makes a request wait for the database and a
// replica serving many keys makes a few queries a second, not one per key per lifetime. A key used in
// the last minute (KEEP_WARM_MS) is kept fresh the same way, so a client that pauses between requests
// (or a burst of clients after a quiet spell) finds its key cached; the most recently used come first
// within WARM_BUDGET keys per round, and the bound on revocation is the same for every cached key.
// Keys not in the cache that are asked for in the same turn of the event loop are looked up in one
// statement.
import {
  API_KEY_PREFIX, SESSION_PREFIX, backgroundOf, findActiveApiKey, findActiveApiKeys, findActiveSession, hashApiKey, type ActiveApiKey, type ActiveSession,
  type SqlClient,
} from '@voice-router/ledger';

interface CacheEntry {
  key: ActiveApiKey | undefined;
  /** Not served from the cache from this time on: the send time of the lookup that found it + the lifetime. */
  expiresAt: number;
  /** When a request last used it (the lookup that found it counts). */
  lastUsedAt: number;
  /** A request used it since the last refresh. */
  used: boolean;
}

export type Credential = { kind: 'api_key'; key: ActiveApiKey } | { kind: 'session'; session: ActiveSession };

export interface ApiKeyAuthenticator {
  /** A pk_ key or a CLI session token; undefined when missing, malformed, unknown, expired or revoked.
   *  Keys are cached briefly; sessions are not (they never reach the speech hot path). */
  identify(authorizationHeader: string): Promise<Credential | undefined>;
  invalidate(keyHash?: string): void;
  /** Stops the background refresh. */
  close(): void;
}

const MAX_CACHE_ENTRIES = 50_000;
/** Keys per refresh statement. */
const REFRESH_BATCH = 1_000;
/** A key used within this long is refreshed even when no request used it since the last round. */
export const KEEP_WARM_MS = 60_000;
/** At most this many keys per round are refreshed for being warm only (keys used since the last round always are). */
const WARM_BUDGET = 1_000;

export function bearerToken(authorizationHeader: string): string | undefined {
  if (authorizationHeader.length < 8 || authorizationHeader.length > 512) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(authorizationHeader);
  return match?.[1];
}

export function createApiKeyAuthenticator(options: {
  sql: SqlClient; cacheTtlMs: number; now?: () => number; keepWarmMs?: number;
}): ApiKeyAuthenticator {
  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<ActiveApiKey | undefined>>();
  const now = options.now ?? Date.now;
  const ttlMs = options.cacheTtlMs;
  const keepWarmMs = options.keepWarmMs ?? KEEP_WARM_MS;

  /** A lookup's answer, served until its lifetime (from when it was sent) ends; `lastUsedAt` carries over. */
  function store(keyHash: string, key: ActiveApiKey | undefined, sentAt: number, lastUsedAt: number): void {
    if (cache.size >= MAX_CACHE_ENTRIES && !cache.has(keyHash)) cache.clear();
    cache.set(keyHash, { key, expiresAt: sentAt + ttlMs, lastUsedAt, used: false });
  }

  // Keys not in the cache are looked up together: those asked for in one turn of the event loop go out
  // in one statement when the turn ends (one key alone keeps the single-key statement). Many accounts
  // starting at once (a deploy, a burst after a quiet spell) then wait for one round trip, not for a
  // queue of them through the connection pool.
  let gathering: Array<{ keyHash: string; resolve(key: ActiveApiKey | undefined): void; reject(error: unknown): void }> = [];

  function lookup(keyHash: string): Promise<ActiveApiKey | undefined> {
    return new Promise((resolve, reject) => {
      if (gathering.length === 0) setImmediate(sendLookups);
      gathering.push({ keyHash, resolve, reject });
    });
  }

  function sendLookups(): void {
    const waiting = gathering;
    gathering = [];
    for (let start = 0; start < waiting.length; start += REFRESH_BATCH) void lookUp(waiting.slice(start, start + REFRESH_BATCH));
  }

  async function lookUp(batch: typeof gathering): Promise<void> {
    const sentAt = now();
    let found: Map<string, ActiveApiKey>;
    try {
      if (batch.length === 1) {
        const key = await findActiveApiKey(options.sql, batch[0]!.keyHash);
        found = key ? new Map([[batch[0]!.keyHash, key]]) : new Map();
      } else {
        found = await findActiveApiKeys(options.sql, batch.map((waiting) => waiting.keyHash));
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const { keyHash, resolve } of batch) {
      const key = found.get(keyHash);
      if (ttlMs > 0) store(keyHash, key, sentAt, sentAt);
      resolve(key);
    }
  }

  // Every half lifetime: the active keys used since the last round, and those used within keepWarmMs
  // (the most recent first, up to WARM_BUDGET), are looked up again in one statement per REFRESH_BATCH,
  // and each gets a new lifetime from the moment it was sent. A key revoked meanwhile is absent from the
  // answer and is cached as unknown; any other key expires and is looked up on its next use.
  let refreshing = false;
  async function refresh(): Promise<void> {
    const time = now();
    const due: string[] = [];
    const warm: Array<[string, number]> = [];
    for (const [keyHash, entry] of cache) {
      if (entry.expiresAt <= time) cache.delete(keyHash);
      else if (!entry.key) continue;
      else if (entry.used) due.push(keyHash);
      else if (time - entry.lastUsedAt < keepWarmMs) warm.push([keyHash, entry.lastUsedAt]);
    }
    if (warm.length > WARM_BUDGET) warm.sort((a, b) => b[1] - a[1]).length = WARM_BUDGET;
    for (const [keyHash] of warm) due.push(keyHash);
    if (due.length === 0 || refreshing) return;
    refreshing = true;
    try {
      for (let start = 0; start < due.length; start += REFRESH_BATCH) {
        const batch = due.slice(start, start + REFRESH_BATCH);
        const sentAt = now();
        const found = await findActiveApiKeys(backgroundOf(options.sql), batch);
        for (const keyHash of batch) {
          const entry = cache.get(keyHash);
          // Invalidated meanwhile (absent), or looked up again since (a later lifetime): left as it is.
          if (!entry || entry.expiresAt >= sentAt + ttlMs) continue;
          store(keyHash, found.get(keyHash), sentAt, entry.lastUsedAt);
        }
      }
    } catch {
      // The entries expire as usual; the next request of each key looks it up (and reports the failure).
    } finally {
      refreshing = false;
    }
  }
  const refresher = ttlMs > 0 ? setInterval(() => void refresh(), Math.max(10, Math.floor(ttlMs / 2))) : undefined;
  refresher?.unref();

  function authenticateToken(token: string | undefined): Promise<ActiveApiKey | undefined> {
    if (!token?.startsWith(API_KEY_PREFIX)) return Promise.resolve(undefined);
    const keyHash = hashApiKey(token);
    const cached = cache.get(keyHash);
    const time = now();
    if (cached && cached.expiresAt > time) {
      cached.used = true;
      cached.lastUsedAt = time;
      return Promise.resolve(cached.key);
    }
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
    close() {
      if (refresher) clearInterval(refresher);
    },
  };
}
