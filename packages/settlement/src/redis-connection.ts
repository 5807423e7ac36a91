// BullMQ connection settings shared by producers and consumers.
import type { ConnectionOptions } from 'bullmq';

export const SETTLEMENT_QUEUE = 'settlement';

export function redisConnection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    // Required by BullMQ workers: blocking commands must wait as long as they need.
    maxRetriesPerRequest: null,
  };
}
