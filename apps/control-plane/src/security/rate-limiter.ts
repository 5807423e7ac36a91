// Attempt limits (log-in, sign-up, device codes, user codes) through rate-limiter-flexible: in this
// process's memory, or in Redis when REDIS_URL is set, so that every control-plane replica shares one
// count. Windows are fixed, starting with a key's first counted attempt.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '@voice-router/service-kit';
import { loadIoredis } from '../load-libraries.js';

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one attempt against `key`; refused once the window's budget is spent. */
  take(key: string): Promise<LimitDecision>;
  /** Returns an attempt that turned out not to count (a success, where only failures are limited). */
  giveBack(key: string): Promise<void>;
  /** Forgets the key's count (e.g. the failures of an email after a successful log-in). */
  reset(key: string): Promise<void>;
}

export interface RateLimitStore {
  kind: 'memory' | 'redis';
  limiter(name: string, options: { limit: number; windowMs: number }): RateLimiter;
  close(): Promise<void>;
}

function wrap(limiter: RateLimiterAbstract): RateLimiter {
  return {
    async take(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
      }
    },
    async giveBack(key) {
      await limiter.reward(key, 1);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

const seconds = (windowMs: number) => Math.max(1, Math.ceil(windowMs / 1000));

export function createMemoryRateLimitStore(): RateLimitStore {
  return {
    kind: 'memory',
    limiter: (name, options) => wrap(new RateLimiterMemory({ keyPrefix: name, points: options.limit, duration: seconds(options.windowMs) })),
    close: async () => undefined,
  };
}

/**
 * Counts in Redis under `<prefix>:limits:<name>:<key>`. While Redis is unreachable each process falls
 * back to counting in its own memory (rate-limiter-flexible's insurance limiter) rather than failing
 * sign-in altogether or letting attempts through uncounted.
 */
export async function createRedisRateLimitStore(options: { redisUrl: string; prefix: string; logger: Logger }): Promise<RateLimitStore> {
  const client = new (loadIoredis().Redis)(options.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastWarning = 0;
  client.on('error', (error: Error) => {
    // ioredis reports every failed reconnect; one line a minute is enough.
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    options.logger.warn('rate-limit store: Redis unavailable, counting in memory meanwhile', { error: error.message });
  });
  await client.connect();
  return {
    kind: 'redis',
    limiter(name, limits) {
      const duration = seconds(limits.windowMs);
      return wrap(new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${options.prefix}:limits:${name}`,
        points: limits.limit,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `insurance:${name}`, points: limits.limit, duration }),
      }));
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Redis when a URL is given (several control-plane replicas share the counts), else memory. */
export async function createRateLimitStore(options: { redisUrl?: string; prefix: string; logger: Logger }): Promise<RateLimitStore> {
  return options.redisUrl
    ? createRedisRateLimitStore({ redisUrl: options.redisUrl, prefix: options.prefix, logger: options.logger })
    : createMemoryRateLimitStore();
}
