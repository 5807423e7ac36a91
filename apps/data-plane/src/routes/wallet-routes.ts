// GET /v1/credits and GET /v1/credits/activity for the account that owns the presented key.
import { ActivityQuerySchema } from '@voice-router/contracts';
import { getCredits, listActivity, microsToNumber, type LedgerRow } from '@voice-router/ledger';
import { accountOf, authenticatedGet } from '../auth/authenticated-route.js';
import type { DataPlaneContext } from '../context.js';
import { sendError, sendJson, type ResponseState } from '../http/response.js';
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

/** Wallet routes act for an account: the key's, or the one the session picks. */
function walletGet(
  app: TemplatedApp, path: string, context: DataPlaneContext,
  handler: (res: HttpResponse, state: ResponseState, accountId: string, query: URLSearchParams) => Promise<void>,
  options: { readsQuery?: boolean } = {},
): void {
  authenticatedGet(app, path, context, async (res, state, request) => {
    const account = await accountOf(context, request);
    if (!account.ok) return sendError(res, state, account.code, account.details);
    await handler(res, state, account.accountId, request.query);
  }, options);
}

export function registerWalletRoutes(app: TemplatedApp, context: DataPlaneContext): void {
  walletGet(app, '/v1/credits', context, async (res, state, accountId) => {
    const wallet = await getCredits(context.sql, accountId);
    if (!wallet) return sendError(res, state, 'not_found', 'this key has no wallet');
    sendJson(res, state, 200, { balanceMicros: microsToNumber(wallet.balanceMicros), reservedMicros: microsToNumber(wallet.reservedMicros) });
  });

  walletGet(app, '/v1/credits/activity', context, async (res, state, accountId, query) => {
    const parsed = ActivityQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return sendError(res, state, 'invalid_body', 'limit must be an integer from 1 to 100');
    const rows = await listActivity(context.sql, accountId, parsed.data.limit);
    sendJson(res, state, 200, { rows: rows.map(activityRow) });
  }, { readsQuery: true });
}
