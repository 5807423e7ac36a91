// The behaviour both limiters share, run against each: the in-memory one and the Redis one (real
// Redis, a unique key prefix per suite).
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, flushRedisPrefix, redisUrl, uniqueRedisPrefix } from '@voice-router/test-support';
import type { KeyLimiter, KeyLimits } from './key-limiter.js';
import { createMemoryKeyLimiter } from './memory-key-limiter.js';
import { createRedisKeyLimiter } from './redis-key-limiter.js';

const url = redisUrl();
if (!url) announceSkip('Redis key limiter suite', 'REDIS_URL is not set');
const prefix = uniqueRedisPrefix();
const limiters: KeyLimiter[] = [];

const implementations: Array<[string, () => Promise<KeyLimiter>]> = [['memory', async () => createMemoryKeyLimiter()]];
if (url) implementations.push(['redis', () => createRedisKeyLimiter({ redisUrl: url, prefix, onError: (error) => { throw error; } })]);

async function make(factory: () => Promise<KeyLimiter>): Promise<KeyLimiter> {
  const limiter = await factory();
  limiters.push(limiter);
  return limiter;
}

afterAll(async () => {
  for (const limiter of limiters) await limiter.close();
  if (url) await flushRedisPrefix(url, prefix);
});

const newKey = () => crypto.randomUUID();

describe.each(implementations)('%s key limiter', (_name, factory) => {
  it('lets rateLimitPerMinute requests through in a window and refuses the next with the seconds left', async () => {
    const limiter = await make(factory);
    const key = newKey();
    const limits = { rateLimitPerMinute: 3, maxConcurrency: 100 };
    for (let index = 0; index < 3; index++) expect(await limiter.countRequest(key, limits)).toBeUndefined();
    const refusal = await limiter.countRequest(key, limits);
    expect(refusal).toMatchObject({ kind: 'rate', limit: 3 });
    expect(refusal?.kind === 'rate' && refusal.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refusal?.kind === 'rate' && refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect(await limiter.countRequest(newKey(), limits)).toBeUndefined();
  });

  it('counts streams toward the rate and refuses a stream over the rate without holding a slot', async () => {
    const limiter = await make(factory);
    const key = newKey();
    const limits = { rateLimitPerMinute: 2, maxConcurrency: 5 };
    expect(await limiter.countRequest(key, limits)).toBeUndefined();
    const first = await limiter.openStream(key, limits);
    expect(first.ok).toBe(true);
    const refused = await limiter.openStream(key, limits);
    expect(refused).toMatchObject({ ok: false, refusal: { kind: 'rate', limit: 2 } });
    const seconds = !refused.ok && refused.refusal.kind === 'rate' ? refused.refusal.retryAfterSeconds : 0;
    expect(seconds).toBeGreaterThanOrEqual(59);
    expect(seconds).toBeLessThanOrEqual(60);
    // A higher limit later in the same window keeps the count (the key has made three requests).
    const raised = { rateLimitPerMinute: 4, maxConcurrency: 5 };
    expect(await limiter.countRequest(key, raised)).toBeUndefined();
    expect(await limiter.countRequest(key, raised)).toMatchObject({ kind: 'rate', limit: 4 });
  });

  it('takes no slot for a stream the rate refuses', async () => {
    const limiter = await make(factory);
    const key = newKey();
    const tight = { rateLimitPerMinute: 1, maxConcurrency: 1 };
    expect(await limiter.countRequest(key, tight)).toBeUndefined();
    expect(await limiter.openStream(key, tight)).toMatchObject({ ok: false, refusal: { kind: 'rate' } });
    // Had the refused stream kept its slot, this one would meet a concurrency refusal.
    const admitted = await limiter.openStream(key, { rateLimitPerMinute: 10, maxConcurrency: 1 });
    expect(admitted.ok).toBe(true);
  });

  it('holds maxConcurrency slots at once and frees one the moment it is released', async () => {
    const limiter = await make(factory);
    const key = newKey();
    const limits = { rateLimitPerMinute: 1000, maxConcurrency: 2 };
    const first = await limiter.openStream(key, limits);
    const second = await limiter.openStream(key, limits);
    expect(first.ok && second.ok).toBe(true);
    expect(await limiter.openStream(key, limits)).toEqual({ ok: false, refusal: { kind: 'concurrency', limit: 2 } });
    if (!first.ok) throw new Error('unreachable');
    first.slot.release();
    first.slot.release(); // twice changes nothing
    const third = await limiter.openStream(key, limits);
    expect(third.ok).toBe(true);
    expect((await limiter.openStream(key, limits)).ok).toBe(false);
  });

  it('grants exactly maxConcurrency of many parallel stream requests', async () => {
    const limiter = await make(factory);
    const key = newKey();
    const limits = { rateLimitPerMinute: 1000, maxConcurrency: 7 };
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.openStream(key, limits)));
    expect(results.filter((result) => result.ok)).toHaveLength(7);
  });
});

describe.runIf(url)('Redis key limiter across replicas', () => {
  const factory = (leaseTtlMs?: number) => make(() => createRedisKeyLimiter({ redisUrl: url!, prefix, leaseTtlMs }));

  it('shares one rate window and one set of slots between two limiters', async () => {
    const [one, two] = [await factory(), await factory()];
    const key = newKey();
    const limits = { rateLimitPerMinute: 10, maxConcurrency: 3 };
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 ? one : two).openStream(key, limits)));
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.filter((result) => !result.ok && result.refusal.kind === 'concurrency')).toHaveLength(5);
    const rate = await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 ? one : two).countRequest(key, limits)));
    // 8 + 6 = 14 requests in the window: the last 4 are refused.
    expect(rate.filter((refusal) => refusal?.kind === 'rate')).toHaveLength(4);
  });

  it('keeps a running stream\'s slot past the lease TTL and frees a dead limiter\'s slots within it', async () => {
    const survivor = await factory(600);
    const victim = await factory(600);
    const key = newKey();
    const limits = { rateLimitPerMinute: 1000, maxConcurrency: 2 };
    expect((await survivor.openStream(key, limits)).ok).toBe(true);
    expect((await victim.openStream(key, limits)).ok).toBe(true);
    await victim.close(); // a crash: nothing released, nothing refreshed
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The survivor's lease was refreshed (still counts); the victim's expired.
    const next = await survivor.openStream(key, limits);
    expect(next.ok).toBe(true);
    expect(await survivor.openStream(key, limits)).toEqual({ ok: false, refusal: { kind: 'concurrency', limit: 2 } });
  });

  it('refreshes all of a process\'s leases of a key together, and every one of them keeps its slot', async () => {
    const survivor = await factory(600);
    const victim = await factory(600);
    const key = newKey();
    const limits = { rateLimitPerMinute: 1000, maxConcurrency: 4 };
    for (let index = 0; index < 3; index += 1) expect((await survivor.openStream(key, limits)).ok).toBe(true);
    expect((await victim.openStream(key, limits)).ok).toBe(true);
    await victim.close();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The survivor's three leases were refreshed past two TTLs; only the victim's slot came free.
    expect((await survivor.openStream(key, limits)).ok).toBe(true);
    expect(await survivor.openStream(key, limits)).toEqual({ ok: false, refusal: { kind: 'concurrency', limit: 4 } });
  });

  it('frees a released slot for another limiter at the end of the turn, and carries releases with its next admission', async () => {
    const [one, two] = [await factory(), await factory()];
    const key = newKey();
    const limits = { rateLimitPerMinute: 1000, maxConcurrency: 2 };
    const first = await one.openStream(key, limits);
    const second = await one.openStream(key, limits);
    if (!first.ok || !second.ok) throw new Error('both slots should be free');
    expect((await two.openStream(key, limits)).ok).toBe(false);
    // Released and nothing else from this limiter: the release goes out at the end of the turn (the
    // 20 ms only let Redis read it before the other limiter's command, which comes on another connection).
    first.slot.release();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const taken = await two.openStream(key, limits);
    expect(taken.ok).toBe(true);
    // Released, then admitted at once from the same limiter: both travel in one write, the release first.
    second.slot.release();
    expect((await one.openStream(key, limits)).ok).toBe(true);
    expect(await two.openStream(key, limits)).toEqual({ ok: false, refusal: { kind: 'concurrency', limit: 2 } });
  });

  it('fails open, reporting the error, when Redis stops answering', async () => {
    const errors: unknown[] = [];
    const limiter = await createRedisKeyLimiter({ redisUrl: url!, prefix, commandTimeoutMs: 200, onError: (error) => errors.push(error) });
    await limiter.close();
    const admission = await limiter.openStream(newKey(), { rateLimitPerMinute: 1, maxConcurrency: 1 });
    expect(admission.ok).toBe(true);
    expect(await limiter.countRequest(newKey(), { rateLimitPerMinute: 1, maxConcurrency: 1 })).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('memory key limiter windows', () => {
  it('starts a new window RATE_WINDOW_MS after the first request of the last one', async () => {
    let time = 1_000_000;
    const limiter = await make(async () => createMemoryKeyLimiter({ now: () => time }));
    const key = newKey();
    const limits = { rateLimitPerMinute: 1, maxConcurrency: 1 };
    expect(await limiter.countRequest(key, limits)).toBeUndefined();
    time += 59_001;
    expect(await limiter.countRequest(key, limits)).toEqual({ kind: 'rate', limit: 1, retryAfterSeconds: 1 });
    time += 999;
    expect(await limiter.countRequest(key, limits)).toBeUndefined();
  });
});

describe.runIf(url)('Redis key limiter grants (keys with roomy limits)', () => {
  const factory = (options: { grantIdleMs?: number; now?: () => number } = {}) =>
    make(() => createRedisKeyLimiter({ redisUrl: url!, prefix, onError: (error) => { throw error; }, ...options }));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 30));
  // What Redis holds for a key: its rate window's count and the leases in its set.
  const inRedis = async <T>(read: (redis: Redis) => Promise<T>) => {
    const redis = new Redis(url!);
    try {
      return await read(redis);
    } finally {
      redis.disconnect();
    }
  };
  const rateCount = (key: string) => inRedis(async (redis) => Number(await redis.get(`${prefix}:limits:rate:{${key}}`)));
  const openLeases = (key: string) => inRedis((redis) => redis.zcard(`${prefix}:limits:streams:{${key}}`));
  /** One stream admitted and ended at once. */
  const streamOnce = async (limiter: KeyLimiter, key: string, limits: KeyLimits) => {
    const admission = await limiter.openStream(key, limits);
    if (!admission.ok) throw new Error(`refused: ${admission.refusal.kind}`);
    admission.slot.release();
  };

  it('admits from a grant without a round trip: the shared window is counted in batches', async () => {
    const limiter = await factory();
    const key = newKey();
    // 1/32 of each limit, capped: 64 requests and 16 leases per grant.
    const limits = { rateLimitPerMinute: 3_200, maxConcurrency: 640 };
    await streamOnce(limiter, key, limits);
    await tick();
    // The first request was checked on its own (1) while the grant was taken (64).
    expect(await rateCount(key)).toBe(65);
    expect(await openLeases(key)).toBe(16);
    for (let index = 0; index < 30; index++) await streamOnce(limiter, key, limits);
    await tick();
    // 30 streams admitted and ended, and Redis saw none of them.
    expect(await rateCount(key)).toBe(65);
    expect(await openLeases(key)).toBe(16);
    // Plain requests (countRequest) spend the same grant.
    expect(await limiter.countRequest(key, limits)).toBeUndefined();
    expect(await rateCount(key)).toBe(65);
  });

  it('never admits more streams than the limit across two replicas, and refuses few early', async () => {
    const [one, two] = [await factory(), await factory()];
    const key = newKey();
    const limits = { rateLimitPerMinute: 100_000, maxConcurrency: 64 }; // 2 spare leases per replica
    const warm = await Promise.all([one.openStream(key, limits), two.openStream(key, limits)]);
    for (const admission of warm) if (admission.ok) admission.slot.release();
    await tick();
    const results = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? one : two).openStream(key, limits)));
    // Later requests, once the top-ups sent during the burst have come back (and sent again).
    for (let round = 0; round < 3; round++) {
      await tick();
      results.push(await one.openStream(key, limits), await two.openStream(key, limits));
      await new Promise((resolve) => setTimeout(resolve, 60)); // past the top-up's back-off
    }
    const admitted = results.filter((result) => result.ok).length;
    expect(admitted).toBeLessThanOrEqual(64);
    // At most the other replica's spares (2) are held back from each.
    expect(admitted).toBeGreaterThanOrEqual(60);
    expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.refusal.kind === 'concurrency')).toBe(true);
    await tick();
    expect(await openLeases(key)).toBeLessThanOrEqual(64);
  });

  it('never admits more requests than the rate across two replicas, and refuses few early', async () => {
    const [one, two] = [await factory(), await factory()];
    const key = newKey();
    const limits = { rateLimitPerMinute: 320, maxConcurrency: 6_400 }; // 10 requests per grant
    let admitted = 0;
    const refusals = new Set<string>();
    for (let index = 0; index < 400; index++) {
      const admission = await (index % 2 ? one : two).openStream(key, limits);
      if (admission.ok) {
        admitted += 1;
        admission.slot.release();
      } else refusals.add(admission.refusal.kind);
      if (index % 7 === 0) await tick();
    }
    expect(admitted).toBeLessThanOrEqual(320);
    // Counted in advance and never used: at most one grant per replica.
    expect(admitted).toBeGreaterThanOrEqual(300);
    expect([...refusals]).toEqual(['rate']);
  });

  it('gives spare leases back once the grant goes unused', async () => {
    const limiter = await factory({ grantIdleMs: 100 });
    const key = newKey();
    const limits = { rateLimitPerMinute: 3_200, maxConcurrency: 640 };
    const admission = await limiter.openStream(key, limits);
    await tick();
    expect(await openLeases(key)).toBe(17);
    if (admission.ok) admission.slot.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await openLeases(key)).toBe(0);
  });

  it('keeps the counted requests for a key that comes back after its spare leases went', async () => {
    const limiter = await factory({ grantIdleMs: 50 });
    const key = newKey();
    const limits = { rateLimitPerMinute: 64, maxConcurrency: 64 }; // 2 requests and 2 leases per grant
    for (let index = 0; index < 8; index++) {
      await streamOnce(limiter, key, limits);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    // Each request counted once, plus the one grant's two: dropping the grant each time would count 3 a request.
    expect(await rateCount(key)).toBeLessThanOrEqual(8 + 2);
    expect(await openLeases(key)).toBe(0);
  });

  it('does not use requests counted in a window that has ended', async () => {
    let time = 1_000;
    const limiter = await factory({ now: () => time });
    const key = newKey();
    const limits = { rateLimitPerMinute: 3_200, maxConcurrency: 640 };
    const first = await limiter.openStream(key, limits);
    if (first.ok) first.slot.release();
    await tick();
    expect((await limiter.openStream(key, limits)).ok).toBe(true);
    expect(await rateCount(key)).toBe(65);
    // Past the window the grant was counted in (by this replica's clock): its requests are not used;
    // a new grant is taken and this request is checked on its own.
    time += 60_001;
    expect((await limiter.openStream(key, limits)).ok).toBe(true);
    await tick();
    expect(await rateCount(key)).toBe(65 + 64 + 1);
  });
});
