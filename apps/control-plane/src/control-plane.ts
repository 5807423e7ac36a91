// The control plane (Express): health, the OpenAPI document, device-code login, API keys, usage,
// and the web console under /console. Every API error body uses the contracts' table.
import express, { type ErrorRequestHandler, type Express } from 'express';
import { buildOpenApiDocument, errorBody } from '@voice-router/contracts';
import { createConsoleRouter } from '@voice-router/console';
import type { Database } from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';
import { createConsoleServices } from './console/console-service-implementation.js';
import { DEFAULT_KEY_LIMITS, type KeyLimitDefaults } from './key-limits.js';
import { deviceAuthRoutes } from './routes/device-auth-routes.js';
import { keyRoutes } from './routes/key-routes.js';
import { usageRoutes } from './routes/usage-routes.js';
import { createRateLimiter } from './security/rate-limiter.js';

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
  /** Called with a revoked key's hash (the embedded data plane drops it from its cache at once). */
  onKeyRevoked?(keyHash: string): void;
}

export function createControlPlaneApp(options: ControlPlaneOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const openApiDocument = JSON.stringify(buildOpenApiDocument({ version: options.version }));
  const onKeyRevoked = options.onKeyRevoked ?? (() => undefined);
  const keyLimitDefaults = options.keyLimitDefaults ?? DEFAULT_KEY_LIMITS;

  app.get('/healthz', async (_request, response) => {
    await options.database.sql.query('SELECT 1');
    response.json({ ok: true, database: options.database.kind });
  });
  app.get('/v1/openapi.json', (_request, response) => {
    response.type('application/json').send(openApiDocument);
  });

  app.use('/v1', express.json({ limit: '16kb', strict: false }));
  app.use(deviceAuthRoutes({
    database: options.database,
    authEnabled: options.authEnabled ?? true,
    publicBaseUrl: options.publicBaseUrl,
    deviceCodeLimiter: createRateLimiter({ limit: 60, windowMs: 60 * 60_000 }),
  }));
  app.use(keyRoutes({ database: options.database, onKeyRevoked, keyLimitDefaults }));
  app.use(usageRoutes(options.database));

  const consoleServices = createConsoleServices({
    database: options.database, signupMode: options.signupMode ?? 'open', onKeyRevoked, keyLimitDefaults,
  });
  app.use('/console', createConsoleRouter(consoleServices, {
    cookieSecure: options.cookieSecure ?? 'auto',
    onError: (error) => options.logger.error('console request failed', { error }),
  }));
  app.get('/', (_request, response) => response.redirect('/console'));

  app.use((_request, response) => {
    response.status(404).json(errorBody('not_found', 'no such endpoint'));
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
    options.logger.error('control plane request failed', { error });
    if (!response.headersSent) response.status(500).json(errorBody('internal_error'));
  };
  app.use(onError);
  return app;
}
