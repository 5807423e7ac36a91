// The limits a key shows: its own values, or the deployment's defaults (the data plane enforces the
// same DEFAULT_KEY_* settings). The spec types them `integer`, so a listing never shows null.
import type { AccountKey } from '@voice-router/ledger';

export interface KeyLimitDefaults {
  maxConcurrency: number;
  rateLimitPerMinute: number;
}

/** DEFAULT_KEY_MAX_CONCURRENCY and DEFAULT_KEY_RATE_LIMIT_PER_MINUTE when unset: a handful of parallel
 *  streams and ten requests a second are generous for one client yet bound a leaked key. */
export const DEFAULT_KEY_LIMITS: KeyLimitDefaults = { maxConcurrency: 8, rateLimitPerMinute: 600 };

export type KeyWithLimits<Key extends AccountKey = AccountKey> = Omit<Key, 'maxConcurrency' | 'rateLimitPerMinute'> & KeyLimitDefaults;

/** The limits a key is held to: its own where set, else the deployment's. */
export function effectiveLimits(key: Pick<AccountKey, 'maxConcurrency' | 'rateLimitPerMinute'>, defaults: KeyLimitDefaults): KeyLimitDefaults {
  return {
    maxConcurrency: key.maxConcurrency ?? defaults.maxConcurrency,
    rateLimitPerMinute: key.rateLimitPerMinute ?? defaults.rateLimitPerMinute,
  };
}

/** A key as the API lists it: the effective limits in place of its own (which may be null). */
export function withKeyLimits<Key extends AccountKey>(key: Key, defaults: KeyLimitDefaults): KeyWithLimits<Key> {
  return { ...key, ...effectiveLimits(key, defaults) };
}
