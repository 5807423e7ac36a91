// Assembles the data plane: the HTTP server (native uWS or the node:http adapter), its routes behind
// the guard that keeps a failing handler from ending the process, and the fallback to the control plane.
import { createAllowanceKeeper, DEFAULT_ALLOWANCE_SETTINGS, type AllowanceKeeper, type AllowanceSettings, type SqlClient } from '@voice-router/ledger';
import { CatalogState, type ProviderRegistry } from '@voice-router/providers';
import type { Settler } from '@voice-router/settlement';
import type { AllowancePeerChannel, KeyLimiter, KeyLimits } from '@voice-router/limits';
import type { Logger, MetricsRegistry, TrustedProxies } from '@voice-router/service-kit';
import { createApiKeyAuthenticator, type ApiKeyAuthenticator } from './auth/api-key-authenticator.js';
import type { DataPlaneContext } from './context.js';
import { createInFlightRequests } from './lifecycle/in-flight.js';
import { createRequestLimits } from './limits/request-limits.js';
import { failRequest } from './http/response.js';
import { guardRoutes } from './http/route-guard.js';
import { countRoutes } from './metrics/count-routes.js';
import { createDataPlaneMetrics, METRICS_OFF, registerDataPlaneSources } from './metrics/data-plane-metrics.js';
import { logRequests } from './logging/request-log.js';
import { answerOtherMethods } from './http/method-answers.js';
import { registerCatalogRoutes } from './routes/catalog-routes.js';
import { registerControlPlaneProxy } from './routes/control-plane-proxy.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerSpeechRoute } from './routes/speech-route.js';
import { registerWalletRoutes } from './routes/wallet-routes.js';
import { selectServer, type ServerChoice, type ServerImplementation } from './server/select-server.js';
import type { ListenSocket } from './uws.js';

export interface DataPlaneOptions {
  host: string;
  port: number;
  sql: SqlClient;
  registry: ProviderRegistry;
  /** The served catalog; absent: the providers' built-in lists, never refreshed. Owned by the caller. */
  catalog?: CatalogState;
  settler: Settler;
  logger: Logger;
  authCacheTtlMs: number;
  streamMaxDurationMs: number;
  attemptTimeoutMs: number;
  /** On close(): how long streams in flight may run on before the router ends them. */
  shutdownGraceMs: number;
  /** Where to send paths the data plane does not serve; without it they answer 404. */
  controlPlaneUrl?: string;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-* headers are believed when forwarding (default: nobody). */
  trustedProxies?: TrustedProxies;
  /** The process's Prometheus registry (served on METRICS_PORT by the caller); none: nothing is recorded. */
  metrics?: MetricsRegistry;
  /** Enforces per-key rate and concurrency limits (startKeyLimiter); none: not enforced. Owned by the caller. */
  keyLimiter?: KeyLimiter;
  /** The limits of keys without their own (DEFAULT_KEY_MAX_CONCURRENCY, DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: 8, 600). */
  keyLimitDefaults?: KeyLimits;
  /** DATA_PLANE_SERVER: 'auto' (default) = native uWS where it loads, else node:http; 'uws' fails without it; 'node' forces the adapter. */
  server?: ServerChoice;
  /** Allowances for hot accounts (ALLOWANCE_* settings); absent or maxMicros 0: every request reserves on its own. */
  allowances?: AllowanceSettings;
  /**
   * The other data planes (scaled out: createRedisAllowancePeers): a request refused while they hold
   * allowance money of its account asks them to return it, and this data plane answers their asks.
   * Owned by the caller.
   */
  allowancePeers?: AllowancePeerChannel;
}

export interface DataPlane {
  port: number;
  /** Which server answers: 'uws-native' or 'node-http'. */
  implementation: ServerImplementation;
  auth: ApiKeyAuthenticator;
  /**
   * Graceful stop: readiness turns 503 and new speech requests are refused at once (503, connection
   * closed); streams in flight run on for up to shutdownGraceMs and are then ended (committed if audio
   * was delivered); then the listener closes. Settlement is the settler's to drain afterwards.
   */
  close(): Promise<void>;
}

export async function startDataPlane(options: DataPlaneOptions): Promise<DataPlane> {
  const selected = selectServer(options.server ?? 'auto', {
    // Errors thrown by route callbacks on the node:http path (the guard below covers the handlers).
    onError: (error, res) => {
      options.logger.error(res ? 'request failed with an uncaught error' : 'HTTP server error', { error });
      if (res) failRequest(res);
    },
  });
  const { server, implementation, description, build } = selected;
  options.logger.info(`data plane HTTP server: ${description}`, { server: implementation, package: build.package, version: build.version });

  const metrics = options.metrics ? createDataPlaneMetrics(options.metrics) : METRICS_OFF;
  const auth = createApiKeyAuthenticator({ sql: options.sql, cacheTtlMs: options.authCacheTtlMs });
  const keeper = createAllowanceKeeper(options.sql, options.allowances ?? { ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 0n }, options.logger, options.allowancePeers);
  options.allowancePeers?.onAsk((accountId) => void keeper.returnHeld(accountId));
  const context: DataPlaneContext = {
    sql: options.sql,
    auth,
    registry: options.registry,
    catalog: options.catalog ?? new CatalogState(() => options.registry.list()),
    reserve: (input) => keeper.reserve(input),
    settler: withAllowancePayments(options.settler, keeper),
    logger: options.logger,
    streamMaxDurationMs: options.streamMaxDurationMs,
    attemptTimeoutMs: options.attemptTimeoutMs,
    inFlight: createInFlightRequests(),
    limits: options.keyLimiter && createRequestLimits(options.keyLimiter, options.keyLimitDefaults ?? { maxConcurrency: 8, rateLimitPerMinute: 600 }),
    metrics,
  };
  if (options.metrics) {
    registerDataPlaneSources(options.metrics, {
      providers: options.registry, settler: options.settler, inFlight: () => context.inFlight.count, server: { implementation, ...build },
      allowances: () => keeper.stats(),
    });
  }
  const app = server.App();
  // Decided once here: without metrics the routes get the bare app and no request pays for counting.
  const counted = countRoutes(app, metrics);
  // Probes are counted but not logged (a load balancer asks every few seconds); every other request gets one line.
  // Each path served here answers HEAD, OPTIONS and other methods itself (http/method-answers.ts): never forwarded.
  const probes = answerOtherMethods(guardRoutes(counted, options.logger));
  registerHealthRoutes(probes.app, context);
  probes.finish();
  const routes = guardRoutes(logRequests(counted, options.logger), options.logger);
  const own = answerOtherMethods(routes);
  registerSpeechRoute(own.app, context);
  registerWalletRoutes(own.app, context);
  registerCatalogRoutes(own.app, context);
  own.finish();
  const closeProxy = registerControlPlaneProxy(routes, context, options.controlPlaneUrl, options.trustedProxies);

  const listenSocket = await new Promise<ListenSocket>((resolve, reject) => {
    app.listen(options.host, options.port, (socket) => (socket ? resolve(socket) : reject(new Error(`cannot listen on ${options.host}:${options.port}`))));
  });
  const port = server.us_socket_local_port(listenSocket);
  return {
    port,
    implementation,
    auth,
    async close() {
      // The listener stays open while draining so that readiness probes see 503 (not a refused
      // connection) and new speech requests get a 503 that sends them to another replica.
      const inFlight = context.inFlight.count;
      const drained = await context.inFlight.drain(options.shutdownGraceMs);
      if (inFlight > 0) options.logger.info('drained speech requests', { ...drained, graceMs: options.shutdownGraceMs });
      server.us_listen_socket_close(listenSocket);
      await closeProxy();
      // What allowances hold unspent goes back to the wallets (requests still streaming return theirs as they end).
      await keeper.close();
      auth.close();
    },
  };
}

/** The settler the routes use: a request paid from an allowance carries its payment to the ledger. */
function withAllowancePayments(settler: Settler, keeper: AllowanceKeeper): Settler {
  return {
    settle(job) {
      const allowance = keeper.settled(job.reservationId, job.action);
      // Set on the job itself, which the settler owns from here (the routes make one per settlement):
      // a copy made by spreading and then given a new property costs ~1 µs on Node 20, per request here.
      if (allowance) job.allowance = allowance;
      settler.settle(job);
    },
    inFlight: (ids) => settler.inFlight(ids),
    backlog: () => settler.backlog(),
    dependenciesReachable: () => settler.dependenciesReachable(),
    drain: (drainOptions) => settler.drain(drainOptions),
    close: (closeOptions) => settler.close(closeOptions),
  };
}
