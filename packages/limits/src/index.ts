// @voice-router/limits: per-key rate and concurrency limits, in process memory or shared through Redis,
// and the Redis channel through which data planes ask each other to return allowance money.
export {
  RATE_WINDOW_MS, retryAfterSeconds, type KeyLimiter, type KeyLimits, type LimitRefusal, type StreamAdmission, type StreamSlot,
} from './key-limiter.js';
export { createMemoryKeyLimiter, type MemoryKeyLimiterOptions } from './memory-key-limiter.js';
export { createRedisKeyLimiter, type RedisKeyLimiterOptions } from './redis-key-limiter.js';
export { createRedisAllowancePeers, type AllowancePeerChannel, type RedisAllowancePeersOptions } from './redis-allowance-peers.js';
