// The worker process (scaled-out mode): consumes settlement jobs, reaps stale reservations, and keeps the
// catalog fresh (voice lists, scheduled smoke tests) in the database, where every data plane reads it.
// Scale it independently of the data plane; any number of workers can run at once.
import { catalogRefreshSettings, providerSettings } from '@voice-router/data-plane';
import { createSqlCatalogStore, openDatabase } from '@voice-router/ledger';
import { CatalogState, createProviderRegistry, startCatalogRefresher } from '@voice-router/providers';
import { createQueuedSettlementGuard, startReaper, startSettlementWorker } from '@voice-router/settlement';
import { ConfigurationError, createLogger, onShutdown, parseEnvironment } from '@voice-router/service-kit';
import { workerEnvironmentSchema } from './environment.js';

async function main() {
  const environment = parseEnvironment('worker', workerEnvironmentSchema);
  const logger = createLogger({ name: 'worker', level: environment.LOG_LEVEL });
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
  // Claims in the database make N workers call each provider's voice API once per interval between them.
  const registry = createProviderRegistry(providerSettings(environment));
  const catalogStore = createSqlCatalogStore(database.sql);
  const catalog = new CatalogState(() => registry.list());
  catalog.applyStored(await catalogStore.load());
  const refresher = startCatalogRefresher({
    registry, state: catalog, store: catalogStore, logger: logger.child({ component: 'catalog' }), ...catalogRefreshSettings(environment),
  });
  logger.info('worker started', { concurrency: environment.SETTLEMENT_CONCURRENCY, pid: process.pid });
  onShutdown([() => database.close(), () => registry.close(), () => refresher.stop(), () => worker.close(), () => queuedGuard.close(), () => reaper.stop()], (message) => logger.info(message));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`);
  process.exit(1);
});
