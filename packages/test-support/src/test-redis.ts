// A unique key prefix per suite so suites sharing one Redis never see each other's queues.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';

export function redisUrl(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

export function uniqueRedisPrefix(): string {
  return `${process.env.VR_TEST_REDIS_PREFIX ?? "vr-test"}-${crypto.randomBytes(6).toString("hex")}`;
}

export async function flushRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
