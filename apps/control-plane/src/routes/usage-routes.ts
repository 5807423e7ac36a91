// GET /v1/usage (session tokens only).
import type { Router } from 'express';
import { UsageQuerySchema } from '@voice-router/contracts';
import { usageReport, type Database } from '@voice-router/ledger';
import { accountOf, requireSession, sendError } from '../authenticate.js';
import { apiRouter } from './api-router.js';

export function usageRoutes(database: Database): Router {
  const router = apiRouter();
  router.get('/v1/usage', requireSession(database), async (request, response) => {
    const parsed = UsageQuerySchema.safeParse(request.query);
    if (!parsed.success) return sendError(response, 'invalid_body', 'days must be an integer from 1 to 365 and limit from 1 to 1000');
    response.json(await usageReport(database.sql, { accountId: accountOf(response).accountId, ...parsed.data }));
  });
  return router;
}
