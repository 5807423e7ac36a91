// The channel to the other data planes for allowance money (packages/limits/src/redis-allowance-peers.ts),
// for a process that shares its database with others through Redis: the scaled-out data plane, or an
// embedded process with REDIS_URL. Nothing without Redis, or with allowances off.
import type { AllowanceSettings } from '@voice-router/ledger';
import { createRedisAllowancePeers, type AllowancePeerChannel } from '@voice-router/limits';
import type { Logger } from '@voice-router/service-kit';

const ERROR_LOG_INTERVAL_MS = 10_000;

export async function startAllowancePeers(
  settings: { redisUrl?: string; prefix: string; allowances?: AllowanceSettings }, logger: Logger,
): Promise<AllowancePeerChannel | undefined> {
  if (!settings.redisUrl || !settings.allowances || settings.allowances.maxMicros <= 0n) return undefined;
  // A refused request then waits only for this process's own allowances; say so, but not once per request.
  let lastLogged = 0;
  return createRedisAllowancePeers({
    redisUrl: settings.redisUrl,
    prefix: settings.prefix,
    onError: (error) => {
      const now = Date.now();
      if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
      lastLogged = now;
      logger.warn('cannot reach the other data planes through Redis; a refused request waits only for this one\'s allowances', {
        error: (error as Error)?.message ?? String(error),
      });
    },
  });
}
