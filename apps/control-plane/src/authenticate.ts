// Bearer authentication for the control plane's API: a `pk_` key or a `vr_session_` token, and the
// account a session acts for. The wrong kind of token for an endpoint is 403 scope_required.
import type { NextFunction, Request, Response } from 'express';
import { ERROR_STATUS, errorBody, type ErrorCode } from '@voice-router/contracts';
import {
  API_KEY_PREFIX, SESSION_PREFIX, findActiveApiKey, findActiveSession, hashApiKey, resolveSessionAccount,
  type ActiveApiKey, type ActiveSession, type Database, type UserAccount,
} from '@voice-router/ledger';

export type Caller = { kind: 'api_key'; key: ActiveApiKey } | { kind: 'session'; session: ActiveSession; token: string };

export function sendError(response: Response, code: ErrorCode, details?: string, status?: number): void {
  response.status(status ?? ERROR_STATUS[code]).json(errorBody(code, details));
}

export function bearer(request: Request): string | undefined {
  const header = request.get('authorization');
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Console (cookie) session tokens are accepted as bearers only where `consoleSessions` says so: the
 * spec lets a raw dashboard session token top up a wallet, nothing else.
 */
export async function identifyCaller(database: Database, token: string | undefined, { consoleSessions = false } = {}): Promise<Caller | undefined> {
  if (!token || token.length > 512) return undefined;
  if (token.startsWith(API_KEY_PREFIX)) {
    const key = await findActiveApiKey(database.sql, hashApiKey(token));
    return key && { kind: 'api_key', key };
  }
  if (token.startsWith(SESSION_PREFIX)) {
    const session = await findActiveSession(database.sql, token);
    // Console cookies are for the browser; only device-code (CLI) sessions are bearer tokens.
    return session && (session.kind === 'cli' || consoleSessions) ? { kind: 'session', session, token } : undefined;
  }
  return undefined;
}

/** The authenticated caller, set by requireSession on response.locals. */
export function callerOf(response: Response): Caller {
  return response.locals.caller as Caller;
}

/** The account the session acts for, set by requireSession unless it was told not to resolve one. */
export function accountOf(response: Response): UserAccount {
  return response.locals.account as UserAccount;
}

/** Requires a session token and, unless told otherwise, resolves the account it acts for (X-Organization-Id). */
export function requireSession(database: Database, { resolveAccount = true, consoleSessions = false } = {}) {
  return async (request: Request, response: Response, next: NextFunction) => {
    const caller = await identifyCaller(database, bearer(request), { consoleSessions });
    if (!caller) return sendError(response, 'unauthorized', 'a valid session token is required (run `vr login`)');
    if (caller.kind !== 'session') return sendError(response, 'scope_required', 'this endpoint needs a session token (vr_session_…), not an API key');
    response.locals.caller = caller;
    if (resolveAccount) {
      const resolution = await resolveSessionAccount(database.sql, caller.session.userId, request.get('x-organization-id'));
      if (!resolution.ok) return sendError(response, resolution.code, resolution.details);
      response.locals.account = resolution.account;
    }
    next();
  };
}
