// The worker process (scaled-out mode): consumes settlement jobs and reaps stale reservations.
// Scale it independently of the data plane; any number of workers can run at once.
import { openDatabase } from '@voice-router/ledger';
import { createQueuedSettlementGuard, startReaper, startSettlementWorker } from '@voice-router/settlement';
import { ConfigurationError, createLogger, onShutdown, parseEnvironment, scrubSecrets, secretSettings } from '@voice-router/service-kit';
import { workerEnvironmentSchema } from './environment.js';

async function main() {
  const environment = parseEnvironment('worker', workerEnvironmentSchema);
  const logger = createLogger({ name: 'worker', level: environment.LOG_LEVEL, secrets: secretSettings(environment) });
  const database = await openDatabase({ kind: 'postgres', url: environment.DATABASE_URL, poolSize: environment.DB_POOL_SIZE });
  const worker = await startSettlementWorker({
    redisUrl: environment.REDIS_URL,
    prefix: environment.REDIS_PREFIX,
    sql: database.sql,
    concurrency: environment.SETTLEMENT_CONCURRENCY,
    logger,
  });
  // A settlement still queued (however long workers were down) wins over the reaper.
  const queuedGuard = createQueuedSettlementGuard({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, sql: database.sql, logger });
  const reaper = startReaper({
    sql: database.sql, olderThanMs: environment.RESERVATION_REAP_AFTER_MS, intervalMs: environment.REAPER_INTERVAL_MS, guards: [queuedGuard], logger,
  });
  void reaper.runOnce();
  logger.info('worker started', { concurrency: environment.SETTLEMENT_CONCURRENCY, pid: process.pid });
  onShutdown([() => database.close(), () => worker.close(), () => queuedGuard.close(), () => reaper.stop()], (message) => logger.info(message));
}

main().catch((error) => {
  process.stderr.write(scrubSecrets(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`));
  process.exit(1);
});
