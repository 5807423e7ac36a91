// Lua scripts for the Redis key limiter. A key's open streams are one sorted set: member = lease id,
// score = when the lease expires (Redis server time, so replicas' clocks do not matter). A lease
// that is not refreshed expires by itself: a killed replica's slots free within the lease TTL.

const NOW_MS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

// The two ends of rate-limiter-flexible's own fixed-window increment (its RateLimiterRedis
// `incrTtlLuaScript`, 11.x), shared by the scripts below that count on the same counter key, so
// requests counted by the library (countRequest) and by these scripts share one window.
// KEYS[1] = the counter, ARGV[1] = window seconds.
/** Opens the window if none is running. */
const OPEN_WINDOW = `
redis.call('SET', KEYS[1], 0, 'EX', ARGV[1], 'NX')`;
/** Leaves `windowTtl` (ms until the window resets) set, giving a counter without expiry the window's. */
const WINDOW_TTL = `
local windowTtl = redis.call('PTTL', KEYS[1])
if windowTtl == -1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  windowTtl = 1000 * tonumber(ARGV[1])
end`;

/** The rate half of ADMIT_STREAM: counts one request. Leaves `consumed` and `windowTtl` (ms) set. */
const FIXED_WINDOW_INCREMENT = `${OPEN_WINDOW}
local consumed = redis.call('INCRBY', KEYS[1], 1)${WINDOW_TTL}`;

/** Outcomes of ADMIT_STREAM (the first element of its reply). */
export const ADMIT = { rateLimited: 0, admitted: 1, concurrencyLimited: 2 } as const;

/**
 * A speech request's whole admission in one round trip: counts it against the key's rate and, only
 * when the rate allows it, takes a concurrency lease. A rate refusal takes no lease (so it never
 * crowds out a concurrent request, even for a moment); a concurrency refusal still counts toward the
 * rate, as every request does.
 * KEYS[1] = the key's rate counter, KEYS[2] = the key's lease set.
 * ARGV = window seconds, rate limit, lease id, max concurrency, lease TTL ms.
 * Returns {ADMIT.*, ms until the rate window resets (meaningful for rateLimited)}.
 */
export const ADMIT_STREAM = `${FIXED_WINDOW_INCREMENT}
if consumed > tonumber(ARGV[2]) then return {${ADMIT.rateLimited}, windowTtl} end
${NOW_MS}
local ttl = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return {${ADMIT.concurrencyLimited}, windowTtl} end
redis.call('ZADD', KEYS[2], now + ttl, ARGV[3])
redis.call('PEXPIRE', KEYS[2], ttl)
return {${ADMIT.admitted}, windowTtl}`;

/**
 * KEYS[1] = the key's lease set; ARGV = TTL ms, lease ids… Extends the leases of running streams (all
 * of this process's leases in the set, in one call). A lease that was purged (the process stalled past
 * its TTL) is put back: the stream is still running, so it still counts, even if that briefly puts the
 * key over its limit (new streams are refused meanwhile).
 */
export const REFRESH_LEASES = `${NOW_MS}
local ttl = tonumber(ARGV[1])
for index = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[index]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return #ARGV - 1`;

/**
 * A replica's grant for a key with roomy limits (local-grants.ts): counts up to ARGV[3] requests in the
 * key's current rate window in advance, as many as the window still allows, and adds up to the given
 * lease ids to the key's lease set, as many as are free. Neither can put the key over its limits.
 * KEYS[1] = the key's rate counter, KEYS[2] = the key's lease set.
 * ARGV = window seconds, rate limit, requests wanted, max concurrency, lease TTL ms, lease ids wanted…
 * Returns {requests counted, leases added (the first ones of ARGV[6…]), ms until the rate window resets}.
 */
export const TAKE_GRANT = `${OPEN_WINDOW}
local consumed = tonumber(redis.call('GET', KEYS[1]))
local take = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) - consumed)
if take < 0 then take = 0 end
if take > 0 then redis.call('INCRBY', KEYS[1], take) end${WINDOW_TTL}
${NOW_MS}
local ttl = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local add = math.min(#ARGV - 5, tonumber(ARGV[4]) - redis.call('ZCARD', KEYS[2]))
if add < 0 then add = 0 end
for index = 1, add do redis.call('ZADD', KEYS[2], now + ttl, ARGV[5 + index]) end
if add > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return {take, add, windowTtl}`;
