// GET /v1/credits and GET /v1/credits/activity for the account that owns the presented key.
import { ActivityQuerySchema } from '@voice-router/contracts';
import { getCredits, listActivity, microsToNumber, resolveSessionAccount, type LedgerRow } from '@voice-router/ledger';
import type { DataPlaneContext } from '../context.js';
import { sendLimitRefusal } from '../limits/limit-responses.js';
import { sendError, sendJson, trackAbort, type ResponseState } from '../http/response.js';
import type { HttpResponse, TemplatedApp } from '../uws.js';

function activityRow(row: LedgerRow) {
  return {
    id: row.id,
    kind: row.kind,
    microsDelta: microsToNumber(row.microsDelta),
    microsBalanceAfter: microsToNumber(row.microsBalanceAfter),
    reservationId: row.reservationId,
    source: row.source,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
  };
}

function authenticated(
  app: TemplatedApp, path: string, context: DataPlaneContext,
  handler: (res: HttpResponse, state: ResponseState, accountId: string, query: URLSearchParams) => Promise<void>,
): void {
  app.get(path, (res, req) => {
    const authorization = req.getHeader('authorization');
    const organization = req.getHeader('x-organization-id');
    const query = new URLSearchParams(req.getQuery() ?? '');
    const state = trackAbort(res);
    (async () => {
      const credential = await context.auth.identify(authorization);
      if (!credential) return sendError(res, state, 'unauthorized', 'a valid pk_ API key or session token is required');
      if (credential.kind === 'api_key') {
        const refusal = await context.limits?.countRequest(credential.key);
        if (refusal) return sendLimitRefusal(res, state, refusal);
        return handler(res, state, credential.key.accountId, query);
      }
      const resolution = await resolveSessionAccount(context.sql, credential.session.userId, organization || undefined);
      if (!resolution.ok) return sendError(res, state, resolution.code, resolution.details);
      await handler(res, state, resolution.account.accountId, query);
    })().catch((error) => {
      context.logger.error('wallet request failed', { path, error });
      sendError(res, state, 'internal_error');
    });
  });
}

export function registerWalletRoutes(app: TemplatedApp, context: DataPlaneContext): void {
  authenticated(app, '/v1/credits', context, async (res, state, accountId) => {
    const wallet = await getCredits(context.sql, accountId);
    if (!wallet) return sendError(res, state, 'not_found', 'this key has no wallet');
    sendJson(res, state, 200, { balanceMicros: microsToNumber(wallet.balanceMicros), reservedMicros: microsToNumber(wallet.reservedMicros) });
  });

  authenticated(app, '/v1/credits/activity', context, async (res, state, accountId, query) => {
    const parsed = ActivityQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return sendError(res, state, 'invalid_body', 'limit must be an integer from 1 to 100');
    const rows = await listActivity(context.sql, accountId, parsed.data.limit);
    sendJson(res, state, 200, { rows: rows.map(activityRow) });
  });
}
