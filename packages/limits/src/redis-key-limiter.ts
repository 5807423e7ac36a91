// Limits shared by every replica through Redis. The rate is rate-limiter-flexible's fixed window; the
// concurrency slots are leases refreshed while their streams run (lease-scripts.ts). A speech
// request's admission (rate + lease) is one Lua script: one command, one round trip, written to the
// socket at once (no auto-pipelining, which would hold it for a setImmediate to batch it).
// Redis trouble fails open (the request goes ahead and onError hears why): the money limits live in
// the database, and a limiter outage must not take the API down with it.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ADMIT, ADMIT_STREAM, REFRESH_LEASE } from './lease-scripts.js';
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

interface LimiterCommands {
  vrAdmitStream(
    rateKey: string, leaseSetKey: string, windowSeconds: number, rateLimit: number, leaseId: string, maxConcurrency: number, ttlMs: number,
  ): Promise<[number, number]>;
  vrRefreshLease(key: string, leaseId: string, ttlMs: number): Promise<number>;
}

interface Lease {
  setKey: string;
  id: string;
}

const WINDOW_SECONDS = RATE_WINDOW_MS / 1000;

export async function createRedisKeyLimiter(options: RedisKeyLimiterOptions): Promise<KeyLimiter> {
  const leaseTtlMs = options.leaseTtlMs ?? 10_000;
  const report = options.onError ?? (() => undefined);
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
  });
  redis.on('error', report);
  redis.defineCommand('vrAdmitStream', { numberOfKeys: 2, lua: ADMIT_STREAM });
  redis.defineCommand('vrRefreshLease', { numberOfKeys: 1, lua: REFRESH_LEASE });
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
  const refresher = setInterval(() => {
    for (const lease of liveLeases) commands.vrRefreshLease(lease.setKey, lease.id, leaseTtlMs).catch(report);
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

  return {
    async countRequest(keyId, limits) {
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
      const lease: Lease = { setKey: `${keyPrefix}:streams:${tagged(keyId)}`, id: `${processTag}:${++leaseCounter}` };
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
      flushReleases();
      closed = true;
      clearInterval(refresher);
      liveLeases.clear();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
