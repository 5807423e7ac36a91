// Lua scripts for concurrency leases. A key's open streams are one sorted set: member = lease id,
// score = when the lease expires (Redis server time, so replicas' clocks do not matter). A lease
// that is not refreshed expires by itself: a killed replica's slots free within the lease TTL.

const NOW_MS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/** KEYS[1] = the key's lease set; ARGV = lease id, max concurrency, TTL ms. Returns 1 when taken, 0 when full. */
export const ACQUIRE_LEASE = `${NOW_MS}
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`;

/**
 * KEYS[1] = the key's lease set; ARGV = lease id, TTL ms. Extends a running stream's lease. A lease
 * that was purged (the process stalled past its TTL) is put back: the stream is still running, so it
 * still counts, even if that briefly puts the key over its limit (new streams are refused meanwhile).
 */
export const REFRESH_LEASE = `${NOW_MS}
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`;
