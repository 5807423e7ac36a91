// Both attempt-limit stores behave alike (budget, Retry-After, give back, reset), and the Redis one is
// one count for every process that shares its prefix.
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, flushRedisPrefix, redisUrl, uniqueRedisPrefix } from '@voice-router/test-support';
import { createLogger } from '@voice-router/service-kit';
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from './rate-limiter.js';

const logger = createLogger({ name: 'rate-limiter-test', level: 'error' });
const prefix = uniqueRedisPrefix();
const stores: RateLimitStore[] = [];
if (!redisUrl()) announceSkip('attempt limits in Redis', 'REDIS_URL is not set');

afterAll(async () => {
  for (const store of stores) await store.close();
  if (redisUrl()) await flushRedisPrefix(redisUrl()!, prefix);
});

async function openStore(kind: 'memory' | 'redis'): Promise<RateLimitStore> {
  const store = kind === 'memory' ? createMemoryRateLimitStore() : await createRedisRateLimitStore({ redisUrl: redisUrl()!, prefix, logger });
  stores.push(store);
  return store;
}

const kinds = redisUrl() ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(kinds)('the %s store', (kind) => {
  it('allows the budget, then refuses with the seconds left in the window', async () => {
    const limiter = (await openStore(kind)).limiter(`budget-${kind}`, { limit: 3, windowMs: 60_000 });
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await limiter.take('a')).toEqual({ allowed: true });
    const refused = await limiter.take('a');
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(55);
    expect(!refused.allowed && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limiter.take('b')).toEqual({ allowed: true });
  });

  it('gives back attempts that did not count, and forgets a key on reset', async () => {
    const limiter = (await openStore(kind)).limiter(`give-back-${kind}`, { limit: 2, windowMs: 60_000 });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await limiter.take('success')).allowed).toBe(true);
      await limiter.giveBack('success');
    }
    await limiter.take('failures');
    await limiter.take('failures');
    expect((await limiter.take('failures')).allowed).toBe(false);
    await limiter.reset('failures');
    expect((await limiter.take('failures')).allowed).toBe(true);
  });

  it('starts a fresh window once the old one is over', async () => {
    const limiter = (await openStore(kind)).limiter(`window-${kind}`, { limit: 1, windowMs: 1_000 });
    expect((await limiter.take('k')).allowed).toBe(true);
    expect((await limiter.take('k')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await limiter.take('k')).allowed).toBe(true);
  });
});

describe.runIf(Boolean(redisUrl()))('the Redis store across processes', () => {
  it('keeps one count for every store on the same prefix; parallel takes never overshoot', async () => {
    const [first, second] = [await openStore('redis'), await openStore('redis')];
    const limits = { limit: 25, windowMs: 60_000 };
    const [one, two] = [first.limiter('shared', limits), second.limiter('shared', limits)];
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, index) => (index % 2 ? one : two).take('client')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(25);
    expect((await one.take('client')).allowed).toBe(false);
    expect((await two.take('client')).allowed).toBe(false);
    // Memory stores, by contrast, each count on their own.
    const [memoryOne, memoryTwo] = [createMemoryRateLimitStore().limiter('m', { limit: 1, windowMs: 60_000 }), createMemoryRateLimitStore().limiter('m', { limit: 1, windowMs: 60_000 })];
    expect([(await memoryOne.take('x')).allowed, (await memoryTwo.take('x')).allowed]).toEqual([true, true]);
  });
});
