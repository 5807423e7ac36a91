// The control plane as its own process (scaled-out mode).
import { openDatabase } from '@voice-router/ledger';
import { ConfigurationError, createLogger, metricsSettings, onShutdown, parseEnvironment, scrubSecrets, secretSettings, startProcessMetrics } from '@voice-router/service-kit';
import { createControlPlaneApp } from './control-plane.js';
import { controlPlaneEnvironmentSchema, controlPlaneSettings } from './environment.js';
import { listen } from './listen.js';
import { createRateLimitStore } from './security/rate-limiter.js';

async function main() {
  const environment = parseEnvironment('control-plane', controlPlaneEnvironmentSchema);
  const logger = createLogger({ name: 'control-plane', level: environment.LOG_LEVEL, secrets: secretSettings(environment) });
  const metrics = await startProcessMetrics(metricsSettings(environment), environment.HOST, logger);
  const database = await openDatabase({ kind: 'postgres', url: environment.DATABASE_URL, poolSize: 5 });
  const rateLimits = await createRateLimitStore({ redisUrl: environment.REDIS_URL, prefix: environment.REDIS_PREFIX, logger });
  const app = createControlPlaneApp({
    database, logger, rateLimits, metrics: metrics.registry, ...controlPlaneSettings(environment),
    ...(environment.DATA_PLANE_URL ? { dataPlaneUrl: () => environment.DATA_PLANE_URL } : {}),
  });
  const server = await listen(app, environment.HOST, environment.CONTROL_PLANE_PORT);
  logger.info('control plane listening', {
    url: `http://${environment.HOST}:${server.port}`, attemptLimits: rateLimits.kind, trustedProxies: environment.TRUSTED_PROXIES.entries,
  });
  onShutdown([() => metrics.server.close(), () => database.close(), () => rateLimits.close(), () => server.close()], (message) => logger.info(message));
}

main().catch((error) => {
  process.stderr.write(scrubSecrets(`${error instanceof ConfigurationError ? error.message : (error as Error).stack}\n`));
  process.exit(1);
});
