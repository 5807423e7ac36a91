// The control plane (Express): health and the OpenAPI document now; accounts, keys, billing, usage
// and the console are mounted here as they arrive. Every error body uses the contracts' table.
import express, { type ErrorRequestHandler, type Express } from 'express';
import { buildOpenApiDocument, errorBody } from '@voice-router/contracts';
import type { Database } from '@voice-router/ledger';
import type { Logger } from '@voice-router/service-kit';

export interface ControlPlaneOptions {
  database: Database;
  logger: Logger;
  version?: string;
}

export function createControlPlaneApp(options: ControlPlaneOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const openApiDocument = JSON.stringify(buildOpenApiDocument({ version: options.version }));

  app.get('/healthz', async (_request, response) => {
    await options.database.sql.query('SELECT 1');
    response.json({ ok: true, database: options.database.kind });
  });

  app.get('/v1/openapi.json', (_request, response) => {
    response.type('application/json').send(openApiDocument);
  });

  app.use((_request, response) => {
    response.status(404).json(errorBody('not_found', 'no such endpoint'));
  });

  const onError: ErrorRequestHandler = (error, _request, response, _next) => {
    if ((error as { type?: string }).type === 'entity.parse.failed') {
      response.status(400).json(errorBody('invalid_body', 'malformed JSON'));
      return;
    }
    options.logger.error('control plane request failed', { error });
    if (!response.headersSent) response.status(500).json(errorBody('internal_error'));
  };
  app.use(onError);
  return app;
}
