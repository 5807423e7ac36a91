// Runs the data plane, control plane and settlement in one process on one base URL. The default
// mode needs nothing installed (PGlite on disk, in-process settlement); DATABASE_URL and REDIS_URL
// switch the same pieces to PostgreSQL and BullMQ.
import path from 'node:path';
import { startAdminEndpoint } from '@voice-router/admin';
import { controlPlaneSettings, createControlPlaneApp, createRateLimitStore, listen } from '@voice-router/control-plane';
import {
  catalogRefreshSettings, dataPlaneSettings, keyLimiterSettings, providerSettings, settlerSettings, startAllowancePeers, startDataPlane, startKeyLimiter,
  upstreamObserver,
} from '@voice-router/data-plane';
import { backgroundOf, createSqlCatalogStore, openDatabase, startPgliteVacuum, startPostgresMaintenance, type Database } from '@voice-router/ledger';
import { CatalogState, createProviderRegistry, smokeTestProviders, startCatalogFollower, startCatalogRefresher } from '@voice-router/providers';
import {
  createInProcessSettler, createQueuedSettlementGuard, createQueueSettler, startReaper, startSettlementWorker, type SettlementGuard, type Settler,
} from '@voice-router/settlement';
import { metricsSettings, startProcessMetrics, type Logger } from '@voice-router/service-kit';
import { workerMetrics } from '@voice-router/worker';
import type { EmbeddedEnvironment } from './environment.js';

export interface EmbeddedService {
  baseUrl: string;
  port: number;
  database: Database;
  mode: string;
  /** Where /metrics is served (METRICS_PORT); undefined when metrics are off or the default port was taken. */
  metricsPort: number | undefined;
  close(): Promise<void>;
}

export async function startEmbeddedService(environment: EmbeddedEnvironment, logger: Logger): Promise<EmbeddedService> {
  const closers: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    // One registry and one listener for everything this process runs.
    const metrics = await startProcessMetrics(metricsSettings(environment), environment.HOST, logger);
    closers.push(() => metrics.server.close());
    const dataDir = path.resolve(environment.DATA_DIR);
    const database = environment.DATABASE_URL
      ? await openDatabase({ kind: 'postgres', url: environment.DATABASE_URL, poolSize: environment.DB_POOL_SIZE })
      : await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    closers.push(() => database.close());
    if (database.kind === 'pglite') {
      // PGlite has no autovacuum: this process runs its rules (see packages/ledger/src/pglite-vacuum.ts).
      const vacuum = startPgliteVacuum(backgroundOf(database.sql), { logger });
      closers.push(() => vacuum.stop());
    } else {
      // Nor does a PostgreSQL whose autovacuum is turned off: then this process runs them too.
      const maintenance = await startPostgresMaintenance(database.sql, { logger });
      if (maintenance) closers.push(() => maintenance.stop());
    }

    let settler: Settler;
    // The reaper leaves alone what this process still holds and, with Redis, what BullMQ still queues.
    const guards: SettlementGuard[] = [];
    let hooks = workerMetrics(metrics.registry, { sql: database.sql, logger });
    if (environment.REDIS_URL) {
      const queue = { redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX };
      settler = createQueueSettler({ ...queue, fallbackSql: backgroundOf(database.sql), logger, ...settlerSettings(environment) });
      const queuedGuard = createQueuedSettlementGuard({ ...queue, sql: database.sql, logger });
      closers.push(() => queuedGuard.close());
      guards.push(queuedGuard);
      hooks = workerMetrics(metrics.registry, { sql: database.sql, queue: queuedGuard, logger });
      if (environment.EMBEDDED_WORKER) {
        const worker = await startSettlementWorker({ ...queue, sql: backgroundOf(database.sql), logger, onApplied: hooks.onApplied });
        closers.push(() => worker.close());
      }
    } else {
      // Settlement, the reaper and vacuum yield to the requests' statements on PGlite (backgroundOf).
      settler = createInProcessSettler({ sql: backgroundOf(database.sql), logger, ...settlerSettings(environment) });
    }
    guards.push(settler);
    closers.push(async () => void (await settler.close()));
    const reaper = startReaper({
      sql: backgroundOf(database.sql), olderThanMs: environment.RESERVATION_REAP_AFTER_MS, intervalMs: environment.REAPER_INTERVAL_MS, guards, logger,
      onReaped: hooks.onReaped,
    });
    closers.push(() => reaper.stop());
    void reaper.runOnce();

    const registry = createProviderRegistry({ ...providerSettings(environment), observer: upstreamObserver(metrics.registry) });
    closers.push(() => registry.close());
    // This process refreshes the catalog itself (claims in the database keep several embedded processes on one
    // PostgreSQL from repeating each other's calls) and follows what the others stored.
    const catalog = new CatalogState(() => registry.list());
    const catalogStore = createSqlCatalogStore(database.sql);
    const catalogLogger = logger.child({ component: 'catalog' });
    const follower = await startCatalogFollower({ state: catalog, store: catalogStore, intervalMs: environment.CATALOG_SYNC_INTERVAL_MS, logger: catalogLogger });
    closers.push(() => follower.stop());
    const refreshSettings = { registry, state: catalog, store: catalogStore, logger: catalogLogger, ...catalogRefreshSettings(environment) };
    const refresher = startCatalogRefresher(refreshSettings);
    closers.push(() => refresher.stop());
    const smokeTest = (providerIds?: string[]) =>
      smokeTestProviders({ ...refreshSettings, providerIds, timeoutMs: refreshSettings.smokeTestTimeoutMs });

    // The data plane starts after the control plane, so revocations reach its cache through this slot.
    let dropCachedKey: (keyHash: string) => void = () => undefined;
    let dataPlaneUrl: string | undefined;
    const controlLogger = logger.child({ component: 'control-plane' });
    const rateLimits = await createRateLimitStore({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, logger: controlLogger });
    closers.push(() => rateLimits.close());
    const controlPlaneApp = createControlPlaneApp({
      database,
      logger: controlLogger,
      ...controlPlaneSettings(environment),
      rateLimits,
      metrics: metrics.registry,
      // Its only forwarder is the data plane below, over loopback in this process.
      trustLoopbackForwarder: true,
      onKeyRevoked: (keyHash) => dropCachedKey(keyHash),
      // The console's Voices page goes through this process's own data plane (known once it listens).
      dataPlaneUrl: () => dataPlaneUrl,
    });
    const controlPlane = await listen(controlPlaneApp, '127.0.0.1', 0);
    closers.push(() => controlPlane.close());

    // In memory here, or in Redis with REDIS_URL (shared with data planes in other processes).
    const dataPlaneLogger = logger.child({ component: 'data-plane' });
    const keyLimiter = await startKeyLimiter(keyLimiterSettings(environment), dataPlaneLogger);
    if (keyLimiter) closers.push(() => keyLimiter.close());

    // With REDIS_URL, the data planes of other processes on the same database return allowance money of an
    // account this one is refused a request of (and this one answers them).
    const settings = dataPlaneSettings(environment);
    const allowancePeers = await startAllowancePeers({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, allowances: settings.allowances }, dataPlaneLogger);
    if (allowancePeers) closers.push(() => allowancePeers.close());

    const dataPlane = await startDataPlane({
      ...settings,
      keyLimiter,
      allowancePeers,
      sql: database.sql,
      registry,
      catalog,
      settler,
      logger: dataPlaneLogger,
      controlPlaneUrl: `http://127.0.0.1:${controlPlane.port}`,
      metrics: metrics.registry,
    });
    closers.push(() => dataPlane.close());
    dropCachedKey = (keyHash) => dataPlane.auth.invalidate(keyHash);
    const host = environment.HOST === '0.0.0.0' || environment.HOST === '::' ? '127.0.0.1' : environment.HOST;
    dataPlaneUrl = `http://${host.includes(':') ? `[${host}]` : host}:${dataPlane.port}`;

    if (database.kind === 'pglite') {
      const admin = await startAdminEndpoint({ database, dataDir, smokeTest });
      closers.push(() => admin.close());
    }
    const mode = [
      database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${path.join(dataDir, 'pglite')}`,
      environment.REDIS_URL ? 'BullMQ settlement' : 'in-process settlement',
    ].join(', ');
    return { baseUrl: `http://${host}:${dataPlane.port}`, port: dataPlane.port, database, mode, metricsPort: metrics.server.port, close };
  } catch (error) {
    await close();
    throw error;
  }
}
