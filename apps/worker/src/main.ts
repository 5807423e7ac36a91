// The worker process (scaled-out mode): consumes settlement jobs, reaps stale reservations, and keeps the
// catalog fresh (voice lists, scheduled smoke tests) in the database, where every data plane reads it.
// Scale it independently of the data plane; any number of workers can run at once. It serves no API,
// only /metrics and its probes (/healthz, /readyz) on METRICS_PORT.
import { catalogRefreshSettings, openAICompatibleVariables, providerSettings } from '@voice-router/data-plane';
import { createSqlCatalogStore, openDatabase, startPostgresMaintenance } from '@voice-router/ledger';
import { CatalogState, createProviderRegistry, startCatalogRefresher } from '@voice-router/providers';
import { createProducerClient, createQueuedSettlementGuard, startReaper, startSettlementWorker } from '@voice-router/settlement';
import { ConfigurationError, createLogger, metricsSettings, onShutdown, parseEnvironment, scrubSecrets, secretSettings, startProcessMetrics } from '@voice-router/service-kit';
import { workerEnvironmentSchema } from './environment.js';
import { handleHealthRequest, type HealthChecks } from './health-server.js';
import { workerMetrics } from './metrics/worker-metrics.js';

async function main() {
  const environment = parseEnvironment('worker', workerEnvironmentSchema);
  const logger = createLogger({ name: 'worker', level: environment.LOG_LEVEL, secrets: secretSettings({ ...environment, ...openAICompatibleVariables() }) });
  const database = await openDatabase({ kind: 'postgres', url: environment.DATABASE_URL, poolSize: environment.DB_POOL_SIZE });
  // Readiness pings Redis on its own fail-fast client: the consumer's connection waits for Redis forever.
  const probeRedis = createProducerClient(environment.REDIS_URL);
  probeRedis.on('error', () => undefined); // an outage shows in /readyz; the settlement worker logs it
  let draining = false;
  const checks: HealthChecks = { draining: () => draining, database: () => database.sql.query('SELECT 1'), redis: () => probeRedis.ping() };
  // One listener on METRICS_PORT: /metrics and the probes (/healthz, /readyz) the images and manifests use.
  // The worker has no other listener, so its port must be free even when it is the default.
  const probe = (request: Parameters<typeof handleHealthRequest>[0], response: Parameters<typeof handleHealthRequest>[1]) => {
    handleHealthRequest(request, response, checks);
  };
  const metrics = await startProcessMetrics({ ...metricsSettings(environment), portIsDefault: false }, environment.HOST, logger, { '/healthz': probe, '/readyz': probe });
  // A settlement still queued (however long workers were down) wins over the reaper.
  const queuedGuard = createQueuedSettlementGuard({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, sql: database.sql, logger });
  const hooks = workerMetrics(metrics.registry, { sql: database.sql, queue: queuedGuard, logger });
  const worker = await startSettlementWorker({
    redisUrl: environment.REDIS_URL,
    prefix: environment.REDIS_PREFIX,
    sql: database.sql,
    concurrency: environment.SETTLEMENT_CONCURRENCY,
    partitions: environment.SETTLEMENT_PARTITIONS,
    logger,
    onApplied: hooks.onApplied,
  });
  const reaper = startReaper({
    sql: database.sql, olderThanMs: environment.RESERVATION_REAP_AFTER_MS, intervalMs: environment.REAPER_INTERVAL_MS, guards: [queuedGuard], logger,
    onReaped: hooks.onReaped,
  });
  void reaper.runOnce();
  // A PostgreSQL whose autovacuum is off gets autovacuum's rules from the workers (packages/ledger/src/pglite-vacuum.ts).
  const maintenance = await startPostgresMaintenance(database.sql, { logger: logger.child({ component: 'maintenance' }) });
  // Claims in the database make N workers call each provider's voice API once per interval between them.
  const registry = createProviderRegistry(providerSettings(environment));
  const catalogStore = createSqlCatalogStore(database.sql);
  const catalog = new CatalogState(() => registry.list());
  catalog.applyStored(await catalogStore.load());
  const refresher = startCatalogRefresher({
    registry, state: catalog, store: catalogStore, logger: logger.child({ component: 'catalog' }), ...catalogRefreshSettings(environment),
  });
  logger.info('worker started', { concurrency: environment.SETTLEMENT_CONCURRENCY, partitions: environment.SETTLEMENT_PARTITIONS, pid: process.pid, healthPort: metrics.server.port });
  // Steps run in reverse: stop being ready first, keep answering /healthz until the very end.
  onShutdown([
    () => metrics.server.close(),
    () => void probeRedis.disconnect(),
    () => database.close(), () => registry.close(), () => refresher.stop(), () => worker.close(), () => queuedGuard.close(), () => reaper.stop(),
    () => maintenance?.stop(),
    () => {
      draining = true;
    },
  ], (message) => logger.info(message));
}

main().catch((error) => {
  process.stderr.write(scrubSecrets(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`));
  process.exit(1);
});
