// Limits shared by every replica through Redis. The rate is rate-limiter-flexible's fixed window; the
// concurrency slots are leases refreshed while their streams run (lease-scripts.ts). A speech
// request's admission (rate + lease) is one Lua script: one command, one round trip, written to the
// socket at once (no auto-pipelining, which would hold it for a setImmediate to batch it).
// Keys with roomy limits are admitted from a grant this replica holds (local-grants.ts), with no round
// trip at all; the grant is topped up in the background, one script per many requests.
// Redis trouble fails open (the request goes ahead and onError hears why): the money limits live in
// the database, and a limiter outage must not take the API down with it.
import crypto from 'node:crypto';
import { loadIoredis } from './load-ioredis.js';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ADMIT, ADMIT_STREAM, REFRESH_LEASES, TAKE_GRANT } from './lease-scripts.js';
import { grantable, KeyGrant, type Lease } from './local-grants.js';
import { RATE_WINDOW_MS, retryAfterSeconds, type KeyLimiter, type KeyLimits, type LimitRefusal, type StreamAdmission } from './key-limiter.js';

export interface RedisKeyLimiterOptions {
  redisUrl: string;
  /** Every Redis key starts with `${prefix}:limits:`. */
  prefix: string;
  /** How long a stream slot outlives its last refresh. Default 10,000 ms; refreshed every third of it. */
  leaseTtlMs?: number;
  /** Longest a limiter command may take before the request goes ahead without it. Default 1,000 ms. */
  commandTimeoutMs?: number;
  onError?: (error: unknown) => void;
  /** Grants for keys with roomy limits (local-grants.ts). Default true; false checks every request in Redis. */
  grants?: boolean;
  /** How long a key's grant may go unused before its spare leases go back. Default 1,000 ms. */
  grantIdleMs?: number;
  /** The clock grants are timed by (tests). */
  now?: () => number;
}

/** Leases per refresh call (a script's arguments stay small). */
const REFRESH_BATCH = 500;

interface LimiterCommands {
  vrAdmitStream(
    rateKey: string, leaseSetKey: string, windowSeconds: number, rateLimit: number, leaseId: string, maxConcurrency: number, ttlMs: number,
  ): Promise<[number, number]>;
  vrRefreshLeases(key: string, ttlMs: number, ...leaseIds: string[]): Promise<number>;
  vrTakeGrant(
    rateKey: string, leaseSetKey: string, windowSeconds: number, rateLimit: number, requests: number, maxConcurrency: number, ttlMs: number,
    ...leaseIds: string[]
  ): Promise<[number, number, number]>;
}

const WINDOW_SECONDS = RATE_WINDOW_MS / 1000;
/** How long a grant waits for slots after a top-up found none free. */
const REFILL_BACKOFF_MS = 50;
/** How long a grant waits after a top-up failed. */
const REFILL_ERROR_BACKOFF_MS = 1_000;

export async function createRedisKeyLimiter(options: RedisKeyLimiterOptions): Promise<KeyLimiter> {
  const leaseTtlMs = options.leaseTtlMs ?? 10_000;
  const report = options.onError ?? (() => undefined);
  const { Redis } = loadIoredis();
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
  });
  redis.on('error', report);
  redis.defineCommand('vrAdmitStream', { numberOfKeys: 2, lua: ADMIT_STREAM });
  redis.defineCommand('vrRefreshLeases', { numberOfKeys: 1, lua: REFRESH_LEASES });
  redis.defineCommand('vrTakeGrant', { numberOfKeys: 2, lua: TAKE_GRANT });
  await redis.connect();
  const commands = redis as unknown as LimiterCommands;
  const keyPrefix = `${options.prefix}:limits`;
  const rateKeyPrefix = `${keyPrefix}:rate`;
  // A key's counter and lease set share a hash tag (the key id), so a Redis Cluster keeps them in one
  // slot, as a two-key script needs. The counter is rate-limiter-flexible's key for `{keyId}`.
  const tagged = (keyId: string) => `{${keyId}}`;
  const rateKey = (keyId: string) => `${rateKeyPrefix}:${tagged(keyId)}`;
  // One limiter per distinct limit: they share one counter per key, so a changed limit keeps the count.
  const rateLimiters = new Map<number, RateLimiterRedis>();
  const rateLimiter = (points: number) => {
    let limiter = rateLimiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: rateKeyPrefix, points, duration: WINDOW_SECONDS });
      rateLimiters.set(points, limiter);
    }
    return limiter;
  };
  const processTag = crypto.randomBytes(6).toString('hex');
  let leaseCounter = 0;
  const liveLeases = new Set<Lease>();
  // One script call per key's lease set for all of this process's leases in it (a grant holds up to 16).
  const refresher = setInterval(() => {
    const bySet = new Map<string, string[]>();
    for (const lease of liveLeases) {
      const ids = bySet.get(lease.setKey);
      if (ids) ids.push(lease.id);
      else bySet.set(lease.setKey, [lease.id]);
    }
    for (const [setKey, ids] of bySet) {
      for (let start = 0; start < ids.length; start += REFRESH_BATCH) {
        commands.vrRefreshLeases(setKey, leaseTtlMs, ...ids.slice(start, start + REFRESH_BATCH)).catch(report);
      }
    }
  }, Math.max(100, Math.floor(leaseTtlMs / 3)));
  refresher.unref();
  let closed = false;

  // Releases wait for this process's next admission, which carries them in its own write (they run
  // first, so the admission sees the slots free), or for the end of this turn of the event loop, when
  // whatever gathered goes out in one write. Either way another replica sees a slot free well within a
  // millisecond of its stream's end, and a request pays one Redis write instead of two.
  let releases: Lease[] = [];
  let releaseFlushScheduled = false;

  function takeReleases(): Lease[] {
    const taken = releases;
    releases = [];
    return taken;
  }

  function reportFailures(results: Array<[Error | null, unknown]> | null): void {
    for (const [error] of results ?? []) if (error) report(error);
  }

  /** A pipeline (one write) that starts with the releases in `batch`. */
  function releasing(batch: Lease[]) {
    const pipeline = redis.pipeline();
    for (const lease of batch) pipeline.zrem(lease.setKey, lease.id);
    return pipeline;
  }

  function flushReleases(): void {
    releaseFlushScheduled = false;
    const batch = takeReleases();
    if (batch.length > 0) releasing(batch).exec().then(reportFailures, report);
  }

  function release(lease: Lease): void {
    if (!liveLeases.delete(lease) || closed) return;
    releases.push(lease);
    if (!releaseFlushScheduled) {
      releaseFlushScheduled = true;
      setImmediate(flushReleases);
    }
  }

  /** The admission script, preceded in the same write by the releases still waiting. */
  async function admit(args: Parameters<LimiterCommands['vrAdmitStream']>): Promise<[number, number]> {
    const batch = takeReleases();
    if (batch.length === 0) return commands.vrAdmitStream(...args);
    const pipeline = releasing(batch);
    (pipeline as unknown as LimiterCommands).vrAdmitStream(...args);
    const results = (await pipeline.exec()) ?? [];
    reportFailures(results.slice(0, -1) as Array<[Error | null, unknown]>);
    const [error, reply] = results.at(-1) ?? [new Error('the admission got no reply'), undefined];
    if (error) throw error;
    return reply as [number, number];
  }

  // Fail open: a slot that holds nothing.
  const unlimited: StreamAdmission = { ok: true, slot: { release: () => undefined } };

  // Grants of keys with roomy limits (local-grants.ts), by key id.
  const useGrants = options.grants ?? true;
  const grantIdleMs = options.grantIdleMs ?? 1_000;
  const now = options.now ?? performance.now.bind(performance);
  const grants = new Map<string, KeyGrant>();
  const newLeaseId = () => `${processTag}:${++leaseCounter}`;
  const leaseSetKey = (keyId: string) => `${keyPrefix}:streams:${tagged(keyId)}`;

  /** Drops a key's grant: its spare leases go back (its counted requests are not used). */
  function dropGrant(keyId: string, grant: KeyGrant): void {
    if (grants.get(keyId) === grant) grants.delete(keyId);
    for (const lease of grant.drain()) release(lease);
  }

  // Grants unused for grantIdleMs give their spare leases back, so another replica can have them; their
  // counted requests stay for the key's next requests until their window ends, and then the grant goes.
  const grantSweeper = setInterval(() => {
    const time = now();
    for (const [keyId, grant] of grants) {
      if (time - grant.lastUsed < grantIdleMs || grant.refilling) continue;
      for (const lease of grant.takeSpares()) release(lease);
      if (grant.requests(time) === 0) grants.delete(keyId);
    }
  }, Math.max(10, Math.floor(grantIdleMs / 2)));
  grantSweeper.unref();

  /** Tops a grant up in the background: one script, never awaited by a request. */
  function refill(keyId: string, grant: KeyGrant): void {
    const { requests, leases } = grant.shortfall(now());
    if (requests <= 0 && leases <= 0) return;
    grant.refilling = true;
    const setKey = leaseSetKey(keyId);
    const ids = Array.from({ length: Math.max(0, leases) }, newLeaseId);
    const sentAt = now();
    commands.vrTakeGrant(rateKey(keyId), setKey, WINDOW_SECONDS, grant.limits.rateLimitPerMinute, Math.max(0, requests), grant.limits.maxConcurrency, leaseTtlMs, ...ids)
      .then(([counted, added, windowTtlMs]) => {
        grant.refilling = false;
        const taken = ids.slice(0, added).map((id): Lease => ({ setKey, id }));
        for (const lease of taken) liveLeases.add(lease);
        // Dropped meanwhile (idle, limits changed, closed): what came back goes back.
        if (closed || grants.get(keyId) !== grant) {
          for (const lease of taken) release(lease);
          return;
        }
        grant.add({ requests: counted, leases: taken, validUntil: sentAt + windowTtlMs }, now());
        // Nothing left to take: the requests that follow go the per-request way (and are refused there)
        // without a top-up each, until the window ends or, for slots, a moment later.
        if (counted === 0 && requests > 0) grant.refillAfter = sentAt + windowTtlMs;
        else if (added === 0 && leases > 0) grant.refillAfter = now() + REFILL_BACKOFF_MS;
      }, (error: unknown) => {
        // Redis trouble: the key's requests take the per-request way (which fails open) without a top-up each.
        grant.refilling = false;
        grant.refillAfter = now() + REFILL_ERROR_BACKOFF_MS;
        report(error);
      });
  }

  /** The key's grant when its limits are roomy (created, and its first top-up sent, on first sight). */
  function grantFor(keyId: string, limits: KeyLimits): KeyGrant | undefined {
    if (!useGrants || closed) return undefined;
    let grant = grants.get(keyId);
    if (grant && !grant.matches(limits)) {
      dropGrant(keyId, grant);
      grant = undefined;
    }
    if (!grant) {
      if (!grantable(limits)) return undefined;
      grant = new KeyGrant(limits, now());
      grants.set(keyId, grant);
    }
    grant.lastUsed = now();
    if (grant.wantsRefill(grant.lastUsed)) refill(keyId, grant);
    return grant;
  }

  /** A slot on a lease taken from a grant: when its stream ends the lease becomes a spare again, or is released. */
  function grantSlot(keyId: string, grant: KeyGrant, lease: Lease): StreamAdmission {
    let released = false;
    return {
      ok: true,
      slot: {
        release: () => {
          if (released) return;
          released = true;
          if (closed || grants.get(keyId) !== grant || !grant.giveBack(lease)) release(lease);
        },
      },
    };
  }

  return {
    async countRequest(keyId, limits) {
      if (grantFor(keyId, limits)?.takeRequest(now())) return undefined;
      try {
        await rateLimiter(limits.rateLimitPerMinute).consume(tagged(keyId));
        return undefined;
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          return { kind: 'rate', limit: limits.rateLimitPerMinute, retryAfterSeconds: retryAfterSeconds(error.msBeforeNext) } satisfies LimitRefusal;
        }
        report(error);
        return undefined;
      }
    },
    async openStream(keyId: string, limits: KeyLimits): Promise<StreamAdmission> {
      const grant = grantFor(keyId, limits);
      const granted = grant?.takeStream(now());
      if (granted) return grantSlot(keyId, grant!, granted);
      const lease: Lease = { setKey: leaseSetKey(keyId), id: newLeaseId() };
      let outcome: number;
      let windowTtlMs: number;
      try {
        [outcome, windowTtlMs] = await admit([
          rateKey(keyId), lease.setKey, WINDOW_SECONDS, limits.rateLimitPerMinute, lease.id, limits.maxConcurrency, leaseTtlMs,
        ]);
      } catch (error) {
        report(error);
        return unlimited;
      }
      if (outcome === ADMIT.rateLimited) {
        return { ok: false, refusal: { kind: 'rate', limit: limits.rateLimitPerMinute, retryAfterSeconds: retryAfterSeconds(windowTtlMs) } };
      }
      if (outcome === ADMIT.concurrencyLimited) return { ok: false, refusal: { kind: 'concurrency', limit: limits.maxConcurrency } };
      if (closed) return unlimited;
      liveLeases.add(lease);
      return { ok: true, slot: { release: () => release(lease) } };
    },
    async close() {
      if (closed) return;
      // Spare leases go back with the releases still waiting; slots in use expire (or are released by their streams' ends before this).
      for (const [keyId, grant] of grants) dropGrant(keyId, grant);
      flushReleases();
      closed = true;
      clearInterval(refresher);
      clearInterval(grantSweeper);
      liveLeases.clear();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
