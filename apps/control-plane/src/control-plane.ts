// The control plane (Express): health, the OpenAPI document, device-code login, API keys, usage,
// and the web console under /console. Every API error body uses the contracts' table.
import express, { type ErrorRequestHandler, type Express } from 'express';
import { buildOpenApiDocument, errorBody } from '@voice-router/contracts';
import { createConsoleRouter } from '@voice-router/console';
import type { Database } from '@voice-router/ledger';
import { isLoopbackAddress, parseTrustedProxies, type Logger, type MetricsRegistry, type TrustedProxies } from '@voice-router/service-kit';
import { createBilling } from './billing/billing.js';
import { billingRoutes, billingWebhookRoute } from './billing/billing-routes.js';
import type { StripeSettings } from './billing/stripe-client.js';
import { createConsoleServices } from './console/console-service-implementation.js';
import { createConsoleCatalog } from './console/console-catalog.js';
import { DEFAULT_KEY_LIMITS, type KeyLimitDefaults } from './key-limits.js';
import { logRequests } from './logging/request-log.js';
import { countRequests } from './request-metrics.js';
import { deviceAuthRoutes } from './routes/device-auth-routes.js';
import { keyRoutes } from './routes/key-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { createAttemptLimiters } from './security/attempt-limits.js';
import { createMemoryRateLimitStore, type RateLimitStore } from './security/rate-limiter.js';
import { EXACT_PATHS, exactTargets, NO_SUCH_ENDPOINT, otherMethods } from './routes/api-router.js';

export interface ControlPlaneOptions {
  database: Database;
  logger: Logger;
  version?: string;
  /** AUTH_ENABLED=false switches sign-in off: the device flow answers 503 auth_disabled. */
  authEnabled?: boolean;
  /** SIGNUP_MODE=invite closes open sign-up (an invitation link is then needed). */
  signupMode?: 'open' | 'invite';
  /** PUBLIC_BASE_URL, for links shown to people (verification URI, invitations). */
  publicBaseUrl?: string;
  cookieSecure?: 'auto' | boolean;
  /** DEFAULT_KEY_MAX_CONCURRENCY / DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: what keys without their own limits show. */
  keyLimitDefaults?: KeyLimitDefaults;
  /** Called with a revoked or changed key's hash (the embedded data plane drops it from its cache at once). */
  onKeyRevoked?(keyHash: string): void;
  /** Where attempt limits are counted: memory (default) or Redis shared by every replica. The caller closes it. */
  rateLimits?: RateLimitStore;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For/-Proto/-Host are believed (default: nobody). */
  trustedProxies?: TrustedProxies;
  /**
   * The embedded mode: the data plane in this same process forwards every request over loopback, so a
   * loopback peer is believed too, as the nearest hop only (further hops must be in trustedProxies).
   */
  trustLoopbackForwarder?: boolean;
  /** The data plane the console's Voices page uses (DATA_PLANE_URL; the embedded process's own); without it the page is hidden. */
  dataPlaneUrl?: () => string | undefined;
  /** STRIPE_SECRET_KEY and friends; without them billing answers 503 and the console hides it. */
  stripe?: StripeSettings;
  /** The process's Prometheus registry (served on METRICS_PORT by the caller); none: requests are not counted. */
  metrics?: MetricsRegistry;
}

/** Express's `trust proxy`: hop 0 is the socket peer, higher hops walk X-Forwarded-For from the right. */
function trustFunction(options: ControlPlaneOptions): (address: string, hop: number) => boolean {
  const trusted = options.trustedProxies ?? parseTrustedProxies('');
  const loopbackForwarder = options.trustLoopbackForwarder ?? false;
  return (address, hop) => (hop === 0 && loopbackForwarder && isLoopbackAddress(address)) || trusted.has(address);
}

export function createControlPlaneApp(options: ControlPlaneOptions): Express {
  const app = express();
  // Before any route: Express creates the app's router with these on its first use.
  app.set('case sensitive routing', EXACT_PATHS.caseSensitive);
  app.set('strict routing', EXACT_PATHS.strict);
  app.disable('x-powered-by');
  app.set('trust proxy', trustFunction(options));
  app.use(logRequests(options.logger));
  if (options.metrics) app.use(countRequests(options.metrics));
  app.use(exactTargets());
  // Before any body is read: a method a known API path does not serve is 405 (OPTIONS 200), with Allow.
  app.use(otherMethods(app));
  const openApiDocument = JSON.stringify(buildOpenApiDocument({ version: options.version }));
  const onKeyRevoked = options.onKeyRevoked ?? (() => undefined);
  const keyLimitDefaults = options.keyLimitDefaults ?? DEFAULT_KEY_LIMITS;
  const limits = createAttemptLimiters(options.rateLimits ?? createMemoryRateLimitStore());

  // Liveness answers without dependencies; readiness says whether this replica can serve (its database answers).
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.get('/readyz', async (_request, response) => {
    try {
      await options.database.sql.query('SELECT 1');
      response.json({ status: 'ready', database: options.database.kind });
    } catch {
      response.status(503).json({ status: 'not_ready', reason: 'database_unreachable' });
    }
  });
  app.get('/v1/openapi.json', (_request, response) => {
    response.type('application/json').send(openApiDocument);
  });

  const billing = createBilling(options.stripe, options.database.sql, options.logger.child({ component: 'billing' }));
  const billingOptions = { database: options.database, billing, logger: options.logger, publicBaseUrl: options.publicBaseUrl };
  // Stripe signs the raw bytes, so the webhook must see them before any JSON parsing.
  app.use(billingWebhookRoute(billingOptions));
  app.use('/v1', express.json({ limit: '16kb', strict: false }));
  app.use(deviceAuthRoutes({
    database: options.database,
    authEnabled: options.authEnabled ?? true,
    publicBaseUrl: options.publicBaseUrl,
    deviceCodeLimiter: limits.deviceCodesPerAddress,
  }));
  app.use(sessionRoutes(options.database));
  app.use(keyRoutes({ database: options.database, onKeyRevoked, keyLimitDefaults }));
  app.use(usageRoutes(options.database));
  app.use(billingRoutes(billingOptions));

  const consoleServices = createConsoleServices({
    database: options.database, signupMode: options.signupMode ?? 'open', onKeyRevoked, limits, billing, publicBaseUrl: options.publicBaseUrl,
    keyLimitDefaults,
    onBillingFailure: (failure) => options.logger.error('payment processor request failed', failure),
  });
  if (options.dataPlaneUrl) consoleServices.catalog = createConsoleCatalog({ database: options.database, dataPlaneUrl: options.dataPlaneUrl });
  app.use('/console', createConsoleRouter(consoleServices, {
    cookieSecure: options.cookieSecure ?? 'auto',
    onError: (error) => options.logger.error('console request failed', { error }),
  }));
  app.get('/', (_request, response) => response.redirect('/console'));

  app.use((_request, response) => {
    response.status(404).json(NO_SUCH_ENDPOINT);
  });

  const onError: ErrorRequestHandler = (error, _request, response, _next) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.parse.failed') {
      response.status(400).json(errorBody('invalid_body', 'malformed JSON'));
      return;
    }
    if (type === 'entity.too.large') {
      response.status(400).json(errorBody('invalid_body', 'body too large'));
      return;
    }
    // Other failures the client caused, which Express and body-parser mark 4xx: an unsupported charset or
    // content encoding, a body shorter than its Content-Length, a path parameter that is not valid
    // percent-encoding (`/v1/keys/%C0%AF`). Bad input, not our fault.
    const status = (error as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const details = type ? `unreadable body (${type})` : error instanceof URIError ? 'the path is not valid percent-encoding' : 'unreadable request';
      if (!response.headersSent) response.status(400).json(errorBody('invalid_body', details));
      return;
    }
    // Text the database cannot store (NUL, or invalid in its encoding) that slipped past validation: bad input.
    const databaseCode = (error as { code?: unknown }).code;
    if (databaseCode === '22021' || databaseCode === '22P05') {
      if (!response.headersSent) response.status(400).json(errorBody('invalid_body', 'text with characters that cannot be stored (e.g. NUL)'));
      return;
    }
    options.logger.error('control plane request failed', { error });
    if (!response.headersSent) response.status(500).json(errorBody('internal_error'));
  };
  app.use(onError);
  return app;
}
