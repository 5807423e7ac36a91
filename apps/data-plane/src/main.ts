// The data plane as its own process (scaled-out mode): PostgreSQL for the ledger, BullMQ for settlement.
import { createSqlCatalogStore, openDatabase } from '@voice-router/ledger';
import { CatalogState, createProviderRegistry, startCatalogFollower } from '@voice-router/providers';
import { createQueueSettler } from '@voice-router/settlement';
import { ConfigurationError, createLogger, metricsSettings, onShutdown, parseEnvironment, scrubSecrets, secretSettings, startProcessMetrics } from '@voice-router/service-kit';
import { upstreamObserver } from './metrics/data-plane-metrics.js';
import { startDataPlane } from './data-plane.js';
import { dataPlaneEnvironmentSchema, dataPlaneSettings, keyLimiterSettings, openAICompatibleVariables, providerSettings, settlerSettings } from './environment.js';
import { startAllowancePeers } from './limits/allowance-peers.js';
import { startKeyLimiter } from './limits/request-limits.js';

async function main() {
  const environment = parseEnvironment('data-plane', dataPlaneEnvironmentSchema);
  const logger = createLogger({ name: 'data-plane', level: environment.LOG_LEVEL, secrets: secretSettings({ ...environment, ...openAICompatibleVariables() }) });
  // Metrics first: the provider registry reports its attempts and breakers to it from the start.
  const metrics = await startProcessMetrics(metricsSettings(environment), environment.HOST, logger);
  const database = await openDatabase({ kind: 'postgres', url: environment.DATABASE_URL, poolSize: environment.DB_POOL_SIZE });
  const registry = createProviderRegistry({ ...providerSettings(environment), observer: upstreamObserver(metrics.registry) });
  const settler = createQueueSettler({
    redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, fallbackSql: database.sql, logger, ...settlerSettings(environment),
  });
  const keyLimiter = await startKeyLimiter(keyLimiterSettings(environment), logger);
  const settings = dataPlaneSettings(environment);
  // The other replicas return allowance money of an account when this one is refused a request of it.
  const allowancePeers = await startAllowancePeers({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, allowances: settings.allowances }, logger);
  // The worker refreshes voices and runs smoke tests; every data plane follows what it stored.
  const catalog = new CatalogState(() => registry.list());
  const follower = await startCatalogFollower({
    state: catalog, store: createSqlCatalogStore(database.sql), intervalMs: environment.CATALOG_SYNC_INTERVAL_MS, logger,
  });
  const dataPlane = await startDataPlane({
    ...settings,
    keyLimiter,
    allowancePeers,
    sql: database.sql,
    registry,
    catalog,
    settler,
    logger,
    controlPlaneUrl: environment.CONTROL_PLANE_URL,
    metrics: metrics.registry,
  });
  logger.info('data plane listening', { url: `http://${environment.HOST}:${dataPlane.port}`, pid: process.pid });
  // Reverse order: drain the streams, then settle what they decided, then let go of the rest.
  onShutdown(
    [
      () => metrics.server.close(), () => database.close(), () => registry.close(), () => follower.stop(),
      async () => void (await settler.close()), async () => keyLimiter?.close(), async () => allowancePeers?.close(), () => dataPlane.close(),
    ],
    (message) => logger.info(message),
    { timeoutMs: environment.SHUTDOWN_GRACE_MS + 30_000 },
  );
}

main().catch((error) => {
  process.stderr.write(scrubSecrets(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`));
  process.exit(1);
});
