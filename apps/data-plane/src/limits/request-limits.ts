// Per-key rate and concurrency limits as the routes use them: a key's own limits, or the deployment
// defaults where it has none, checked through one KeyLimiter (memory or Redis). Which requests count:
// every data-plane request made with a pk_ key (speech, credits, activity, and the catalog when a key
// is presented), refused ones included. Session tokens are not counted here. Only speech holds a
// concurrency slot, from admission until its response ends.
import { createMemoryKeyLimiter, createRedisKeyLimiter, type KeyLimiter, type KeyLimits, type LimitRefusal, type StreamAdmission } from '@voice-router/limits';
import type { ActiveApiKey } from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';

export interface RequestLimits {
  countRequest(key: ActiveApiKey): Promise<LimitRefusal | undefined>;
  openStream(key: ActiveApiKey): Promise<StreamAdmission>;
}

export function createRequestLimits(limiter: KeyLimiter, defaults: KeyLimits): RequestLimits {
  const effective = (key: ActiveApiKey): KeyLimits => ({
    rateLimitPerMinute: key.rateLimitPerMinute ?? defaults.rateLimitPerMinute,
    maxConcurrency: key.maxConcurrency ?? defaults.maxConcurrency,
  });
  return {
    countRequest: (key) => limiter.countRequest(key.id, effective(key)),
    openStream: (key) => limiter.openStream(key.id, effective(key)),
  };
}

export interface KeyLimiterSettings {
  enabled: boolean;
  redisUrl?: string;
  prefix: string;
  leaseTtlMs: number;
  /** Grants for keys with roomy limits (Redis only; default on). */
  grants?: boolean;
}

const ERROR_LOG_INTERVAL_MS = 10_000;

/** The limiter for this process, or undefined when limits are switched off (KEY_LIMITS=off). */
export async function startKeyLimiter(settings: KeyLimiterSettings, logger: Logger): Promise<KeyLimiter | undefined> {
  if (!settings.enabled) {
    logger.warn('KEY_LIMITS=off: per-key rate and concurrency limits are not enforced (spend caps still are)');
    return undefined;
  }
  if (!settings.redisUrl) return createMemoryKeyLimiter();
  // Redis trouble lets requests through; say so, but not once per request.
  let lastLogged = 0;
  const onError = (error: unknown) => {
    const now = Date.now();
    if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    logger.warn('key limiter cannot reach Redis; requests pass unlimited meanwhile', { error: (error as Error)?.message ?? String(error) });
  };
  return createRedisKeyLimiter({ redisUrl: settings.redisUrl, prefix: settings.prefix, leaseTtlMs: settings.leaseTtlMs, grants: settings.grants, onError });
}
