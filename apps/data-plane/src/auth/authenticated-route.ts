// GET routes that need `Authorization: Bearer <token>`: a `pk_` key or a CLI session token (console sessions where
// a route allows them). Shared by
// the wallet and catalog routes so every one answers 401 the same way, and every pk_ request counts
// toward its key's rate.
import { resolveSessionAccount } from '@voice-router/ledger';
import type { DataPlaneContext } from '../context.js';
import { sendError, trackAbort, type ResponseState } from '../http/response.js';
import { sendLimitRefusal } from '../limits/limit-responses.js';
import type { HttpResponse, TemplatedApp } from '../uws.js';
import type { Credential } from './api-key-authenticator.js';

export interface AuthenticatedRequest {
  credential: Credential;
  /** Empty unless the route asked for it (readsQuery). */
  query: URLSearchParams;
  /** X-Organization-Id, or '' when absent (only a session uses it). */
  organization: string;
}

export type AuthenticatedHandler = (res: HttpResponse, state: ResponseState, request: AuthenticatedRequest) => Promise<void> | void;

export function authenticatedGet(
  app: TemplatedApp, path: string, context: DataPlaneContext, handler: AuthenticatedHandler,
  /** consoleSessions: also take a console session (the catalog, read server-side by the console's Voices page). */
  options: { readsQuery?: boolean; consoleSessions?: boolean } = {},
): void {
  app.get(path, (res, req) => {
    // uWS forgets the request once this function returns: read everything before the first await.
    const authorization = req.getHeader('authorization');
    const organization = req.getHeader('x-organization-id');
    // Only routes with parameters read the query string (the JavaScript fallback's getQuery() throws on Node 24).
    const query = new URLSearchParams(options.readsQuery ? (req.getQuery() ?? '') : '');
    const state = trackAbort(res);
    (async () => {
      const identified = await context.auth.identify(authorization);
      const credential = identified?.kind === 'session' && identified.session.kind === 'console' && !options.consoleSessions ? undefined : identified;
      if (!credential) return sendError(res, state, 'unauthorized', 'a valid pk_ API key or session token is required (Authorization: Bearer …)');
      if (credential.kind === 'api_key') {
        const refusal = await context.limits?.countRequest(credential.key);
        if (refusal) {
          context.metrics.limitRefused(refusal.kind);
          return sendLimitRefusal(res, state, refusal);
        }
      }
      await handler(res, state, { credential, query, organization });
    })().catch((error) => {
      context.logger.error('request failed', { path, error });
      sendError(res, state, 'internal_error');
    });
  });
}

/** The account a request acts for: the key's own, or the one a session picks with X-Organization-Id. */
export async function accountOf(
  context: DataPlaneContext, request: AuthenticatedRequest,
): Promise<{ ok: true; accountId: string } | { ok: false; code: 'organization_required' | 'forbidden'; details: string }> {
  if (request.credential.kind === 'api_key') return { ok: true, accountId: request.credential.key.accountId };
  const resolution = await resolveSessionAccount(context.sql, request.credential.session.userId, request.organization || undefined);
  return resolution.ok ? { ok: true, accountId: resolution.account.accountId } : resolution;
}
