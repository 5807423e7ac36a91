// Limits shared by every replica through Redis. The rate is rate-limiter-flexible's fixed window; the
// concurrency slots are leases (lease-scripts.ts) refreshed while their streams run. openStream sends
// both commands in the same tick, so ioredis's auto-pipelining puts them in one write: one round trip.
// Redis trouble fails open (the request goes ahead and onError hears why): the money limits live in
// the database, and a limiter outage must not take the API down with it.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ACQUIRE_LEASE, REFRESH_LEASE } from './lease-scripts.js';
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
}

interface LeaseCommands {
  vrAcquireLease(key: string, leaseId: string, max: number, ttlMs: number): Promise<number>;
  vrRefreshLease(key: string, leaseId: string, ttlMs: number): Promise<number>;
}

interface Lease {
  setKey: string;
  id: string;
}

export async function createRedisKeyLimiter(options: RedisKeyLimiterOptions): Promise<KeyLimiter> {
  const leaseTtlMs = options.leaseTtlMs ?? 10_000;
  const report = options.onError ?? (() => undefined);
  const redis = new Redis(options.redisUrl, {
    enableAutoPipelining: true,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
  });
  redis.on('error', report);
  redis.defineCommand('vrAcquireLease', { numberOfKeys: 1, lua: ACQUIRE_LEASE });
  redis.defineCommand('vrRefreshLease', { numberOfKeys: 1, lua: REFRESH_LEASE });
  await redis.connect();
  const commands = redis as unknown as LeaseCommands;
  const keyPrefix = `${options.prefix}:limits`;

  // One limiter per distinct limit: they share one counter per key, so a changed limit keeps the count.
  const rateLimiters = new Map<number, RateLimiterRedis>();
  const rateLimiter = (points: number) => {
    let limiter = rateLimiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:rate`, points, duration: RATE_WINDOW_MS / 1000 });
      rateLimiters.set(points, limiter);
    }
    return limiter;
  };

  const processTag = crypto.randomBytes(6).toString('hex');
  let leaseCounter = 0;
  const liveLeases = new Set<Lease>();
  const refresher = setInterval(() => {
    for (const lease of liveLeases) commands.vrRefreshLease(lease.setKey, lease.id, leaseTtlMs).catch(report);
  }, Math.max(100, Math.floor(leaseTtlMs / 3)));
  refresher.unref();
  let closed = false;

  function rateOutcome(result: PromiseSettledResult<unknown>, limit: number): LimitRefusal | undefined {
    if (result.status === 'fulfilled') return undefined;
    if (result.reason instanceof RateLimiterRes) {
      return { kind: 'rate', limit, retryAfterSeconds: retryAfterSeconds(result.reason.msBeforeNext) };
    }
    report(result.reason);
    return undefined;
  }

  function release(lease: Lease): void {
    if (!liveLeases.delete(lease) || closed) return;
    redis.zrem(lease.setKey, lease.id).catch(report);
  }

  return {
    async countRequest(keyId, limits) {
      const [result] = await Promise.allSettled([rateLimiter(limits.rateLimitPerMinute).consume(keyId)]);
      return rateOutcome(result!, limits.rateLimitPerMinute);
    },
    async openStream(keyId: string, limits: KeyLimits): Promise<StreamAdmission> {
      const lease: Lease = { setKey: `${keyPrefix}:streams:${keyId}`, id: `${processTag}:${++leaseCounter}` };
      // Both commands leave in this tick (auto-pipelining): keep them adjacent, with no await between.
      const rate = rateLimiter(limits.rateLimitPerMinute).consume(keyId);
      const acquire = commands.vrAcquireLease(lease.setKey, lease.id, limits.maxConcurrency, leaseTtlMs);
      const [rateResult, leaseResult] = await Promise.allSettled([rate, acquire]);
      const acquired = leaseResult.status === 'fulfilled' && Number(leaseResult.value) === 1;
      if (acquired) liveLeases.add(lease);
      else if (leaseResult.status === 'rejected') report(leaseResult.reason);
      const rateRefusal = rateOutcome(rateResult, limits.rateLimitPerMinute);
      if (rateRefusal) {
        release(lease);
        return { ok: false, refusal: rateRefusal };
      }
      if (leaseResult.status === 'fulfilled' && !acquired) {
        return { ok: false, refusal: { kind: 'concurrency', limit: limits.maxConcurrency } };
      }
      // Acquired, or Redis failed (fail open with a slot that holds nothing).
      return { ok: true, slot: { release: () => release(lease) } };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(refresher);
      liveLeases.clear();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
